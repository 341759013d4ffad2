"""Awimbawé's native belief sampler and search hints agree with the Python ones.

Views come from random walks over every configuration the agreement walk uses, at every stage
of a match and for both seats and a spectator. Each is packed into its belief code
(``spieltisch.native.awimbawe.belief_code``) and the native core samples worlds from it
(``sample_worlds``, canonical codes). Every native world is rebuilt as a Python state, which
must show exactly the view it was drawn from; the native and the Python samplers must draw
each hidden card's place with the same frequencies (a chi-square test of homogeneity, seeded);
on the hand-built positions of the Python sampler's own test, the native worlds must follow the
exact posterior. The playout cut-off between rounds must give the Python values at the same
states.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from spieltisch.core.errors import InvalidActionError
from spieltisch.games.awimbawe import Awimbawe, AwimbaweState, Side, Stage
from spieltisch.games.awimbawe.belief import sample_state
from spieltisch.games.awimbawe.bots import evaluate
from spieltisch.games.awimbawe.memory import BlindVoid, Memory, bits_lands
from spieltisch.games.awimbawe.model import LastTrick, RoundResult
from spieltisch.games.awimbawe.notation import DECK
from spieltisch.games.awimbawe.rules import Match, Tally
from spieltisch.games.awimbawe.view import AwimbaweView
from spieltisch.native import NativeGame, apply_step
from spieltisch.native.awimbawe import STAGES, STANCES, belief_code, canonical
from tests.games.test_awimbawe_agents import CASES, chi_square_p_value, exact_posterior
from tests.native.agreement import Config, configs, require_native

GAME = "awimbawe"

require_native(GAME)

CONFIGS = configs(GAME) + [Config(2, {"lands": lands}) for lands in (2, 3)]
"""Every option value and parameter bound, and the deck sizes between."""


def game_of(config: Config) -> Awimbawe:
    return Awimbawe(config.players, **config.options)


def n_config(config: Config) -> int:
    return CONFIGS.index(config)


def walk_states(game: Awimbawe, seed: int, count: int) -> Iterator[AwimbaweState]:
    """``count`` states of random matches of ``game``, every step's (deals included)."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        while True:
            yield state
            count -= 1
            if not count:
                return
            if state.is_terminal():
                break
            legal = state.legal_actions()
            move = state.sample_chance(rng) if state.is_chance() else rng.choice(legal)
            state = state.apply(move)


# --- Native worlds as Python states -----------------------------------------------------------


class _Reader:
    def __init__(self, code: Sequence[int]) -> None:
        self.code = list(code)
        self.at = 0

    def take(self, count: int = 1) -> list[int]:
        taken = self.code[self.at : self.at + count]
        self.at += count
        return taken

    def one(self) -> int:
        return self.take()[0]

    def seat(self) -> int | None:
        value = self.one()
        return None if value == -1 else value


def _cards(bits: int) -> tuple[int, ...]:
    return tuple(code for code in range(len(DECK)) if bits >> code & 1)


def state_of(game: Awimbawe, code: Sequence[int]) -> AwimbaweState:
    """The Python state whose ``canonical`` is ``code`` (a native world)."""
    read = _Reader(code)
    round_, win0, win1, count = read.take(4)
    results = []
    for _ in range(count):
        number, winner, c0, c1, h0, h1, fourth = read.take(7)
        results.append(RoundResult(number, winner, (c0, c1), (h0, h1), bool(fourth)))
    round_leader, stage, actor = read.seat(), STAGES[read.one()], read.one()
    trick = tuple(DECK[c] for c in read.take(read.one()))
    next_leader = read.seat()
    last = None
    if read.one():
        leader, first, second, stance, winner = read.take(5)
        last = LastTrick(leader, (DECK[first], DECK[second]), STANCES[stance], winner)
    sides = []
    for _ in range(2):
        hand = tuple(DECK[c] for c in _cards(read.one()))
        piles = tuple(tuple(DECK[c] for c in read.take(read.one())) for _ in range(4))
        down, blocked = (frozenset(DECK[c] for c in _cards(read.one())) for _ in range(2))
        sides.append(Side(hand, piles, down, blocked))
    tallies = tuple(Tally(*read.take(3)) for _ in range(2))
    void = (read.one(), read.one())
    blind = []
    for _ in range(2):
        records = []
        for _ in range(read.one()):
            lands, picks, candidates, resolved = read.take(4)
            records.append(BlindVoid(bits_lands(lands), picks, candidates, resolved))
        blind.append(tuple(records))
    shown = tuple(frozenset(DECK[c] for c in _cards(read.one())) for _ in range(2))
    assert read.at == len(read.code), "a canonical code of another length"
    match = Match(game.config, round_, (win0, win1), tuple(results), round_leader)
    memory = Memory(void, tuple(blind), shown)
    return AwimbaweState(
        match, tuple(sides), tallies, stage, actor, trick, next_leader, last, memory
    )


def native_worlds(
    both: NativeGame, view: AwimbaweView, count: int, seed: int
) -> list[tuple[int, ...]]:
    worlds = both.native.sample_worlds(list(belief_code(view)), count, seed)
    return [tuple(world) for world in worlds]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_every_native_world_shows_the_view_it_was_drawn_from(config: Config) -> None:
    game = game_of(config)
    both = NativeGame(game)
    checked = hidden = 0
    for n, state in enumerate(walk_states(game, seed=50 + n_config(config), count=400)):
        for viewer in (0, 1, None):
            view = state.view(viewer)
            for world in native_worlds(both, view, 3, seed=n):
                rebuilt = state_of(game, world)
                assert canonical(rebuilt) == world
                assert rebuilt.view(viewer) == view, f"step {n}, viewer {viewer}"
                hidden += rebuilt.sides != state.sides
                checked += 1
    assert checked == 400 * 3 * 3 and hidden > checked // 3


def test_codes_that_are_no_view_are_refused() -> None:
    game = Awimbawe()
    both = NativeGame(game)
    state = next(s for s in walk_states(game, seed=3, count=50) if s.stage is Stage.PLAY)
    code = list(belief_code(state.view(0)))
    shown = NativeGame(Awimbawe(2, blind_pick_shown=True))
    bad = [
        [],
        code[:-1],
        [*code, 0],
        [code[0], *code[1:4], 1, *code[5:]],  # the options of another game
        [2, *code[1:]],  # no seat
        [*code[:13], 1 << 29, *code[14:]],  # a card that is none
    ]
    for wrong in bad:
        with pytest.raises(InvalidActionError):
            both.native.sample_worlds(wrong, 1, 0)
    with pytest.raises(InvalidActionError):
        shown.native.sample_worlds(code, 1, 0)


# --- The same distribution ----------------------------------------------------------------------

DRAWS = 2000
"""Worlds drawn from each view by each sampler."""
VIEWS_PER_CONFIG = 3


Place = tuple[object, ...]
GONE: Place = ("played",)


def places(state: AwimbaweState) -> dict[int, Place]:
    """Where each card lies in ``state``: a hand (and whether it is blocked there) or a pile
    place; cards played are in neither."""
    where: dict[int, Place] = {}
    for seat, side in enumerate(state.sides):
        for card in side.hand:
            where[card.code] = ("hand", seat, card in side.blocked)
        for index, pile in enumerate(side.piles):
            for place, card in enumerate(pile):
                where[card.code] = ("pile", seat, index, place)
    return where


def homogeneity(first: Counter[Place], second: Counter[Place]) -> tuple[float, int]:
    """Pearson's chi-square of two samples of equal size having one distribution, and its
    degrees of freedom; places drawn fewer than ten times in both together are pooled."""
    total = first + second
    rare = [key for key, n in total.items() if n < 10]
    cells = [key for key in total if key not in rare]
    pairs = [(first[key], second[key]) for key in cells]
    if rare:
        pairs.append((sum(first[k] for k in rare), sum(second[k] for k in rare)))
    statistic = 0.0
    for a, b in pairs:
        expected = (a + b) / 2
        statistic += (a - expected) ** 2 / expected + (b - expected) ** 2 / expected
    return statistic, len(pairs) - 1


def sampled_views() -> Iterator[tuple[Config, int | None, AwimbaweState]]:
    """A few views of each configuration with cards hidden, at points of a round chosen at
    random, for seat 0, seat 1 and a spectator in turn."""
    rng = random.Random(7)
    viewers = [0, 1, None]
    turn = 0
    for config in CONFIGS:
        game = game_of(config)
        states = [
            s
            for s in walk_states(game, seed=90 + n_config(config), count=300)
            if any(s.sides[0].hand) and s.stage is not Stage.DEAL
        ]
        for state in rng.sample(states, VIEWS_PER_CONFIG):
            yield config, viewers[turn % 3], state
            turn += 1


def test_native_and_python_draw_each_hidden_card_alike() -> None:
    statistic_sum, freedom_sum, smallest, tests = 0.0, 0, 1.0, 0
    for n, (config, viewer, state) in enumerate(sampled_views()):
        game = game_of(config)
        view = state.view(viewer)
        rng = random.Random(n)
        python = [places(sample_state(game, view, rng)) for _ in range(DRAWS)]
        worlds = native_worlds(NativeGame(game), view, DRAWS, seed=1000 + n)
        ours = [places(state_of(game, world)) for world in worlds]
        for card in range(len(DECK)):
            first = Counter(where.get(card, GONE) for where in python)
            second = Counter(where.get(card, GONE) for where in ours)
            statistic, freedom = homogeneity(first, second)
            if freedom == 0:
                assert first == second, f"card {card} of {config} viewer {viewer}"
                continue
            statistic_sum += statistic
            freedom_sum += freedom
            smallest = min(smallest, chi_square_p_value(statistic, freedom))
            tests += 1
    assert tests > 100
    assert chi_square_p_value(statistic_sum, freedom_sum) > 0.001, (statistic_sum, freedom_sum)
    assert smallest > 0.001 / tests, (smallest, tests)


@pytest.mark.parametrize("case", list(CASES))
def test_native_worlds_follow_the_exact_posterior(case: str) -> None:
    make, moves, viewer, options = CASES[case]
    start = make(**options) if options else make()
    end, exact = exact_posterior(start, moves, viewer)
    game = Awimbawe(2, **options)
    draws = max(6000, 200 * len(exact))
    worlds = native_worlds(NativeGame(game), end.view(viewer), draws, seed=2024)
    counts = Counter(state_of(game, world).sides for world in worlds)
    assert set(counts) <= set(exact), "the native sampler drew a hidden deal the play rules out"
    statistic = sum(
        (counts[key] - draws * float(p)) ** 2 / (draws * float(p)) for key, p in exact.items()
    )
    p_value = chi_square_p_value(statistic, len(exact) - 1)
    assert p_value > 0.001, f"{case}: chi-square {statistic:.1f} on {len(exact) - 1} df"


# --- The playout cut-off -------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_the_cut_off_between_rounds_agrees(config: Config) -> None:
    game = game_of(config)
    both = NativeGame(game)
    rng = random.Random(n_config(config))
    cut = 0
    for _ in range(6):
        state = game.initial_state()
        nat = both.initial_state()
        while True:
            for depth in (0, 9):
                expected = evaluate(state, depth)
                got = both.native.evaluate(nat, depth)
                if expected is None:
                    assert got is None, (state.stage, state.match.wins)
                else:
                    assert got == pytest.approx(list(expected), abs=1e-9)
                    cut += 1
            if state.is_terminal():
                break
            legal = state.legal_actions()
            move = state.sample_chance(rng) if state.is_chance() else rng.choice(legal)
            apply_step(nat, both.step_of(state, move))
            state = state.apply(move)
    assert cut > 0 or game.config.rounds_to_win == 1
