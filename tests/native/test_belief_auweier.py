"""Auweier's native belief sampler against the Python one.

Views come from random games of every config the agreement walk uses, early, midway and late,
for every seat and a spectator. Each view is packed (``belief_code``), the native sampler draws
worlds from it (the test hook ``sample_worlds`` gives their canonical codes), and each world,
read back into a Python state, must show exactly that view to its viewer and be a state the
Python sampler could draw (its player due to move can play). Then, for views picked to have
much hidden (other hands and piles, the viewer's own shuffled pile, decks set up in secret, a
player to move who may be stuck), a two-sample chi-square test on the hidden cards of
thousands of worlds from each sampler: the same distribution. Malformed codes are refused.
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.core.errors import InvalidActionError
from spieltisch.games.auweier import Auweier, AuweierState, Card, Colour, End, Stage
from spieltisch.games.auweier.belief import state_of
from spieltisch.games.auweier.model import Award, Config, Egg, Mating
from spieltisch.games.auweier.notation import KINDS
from spieltisch.games.auweier.rules import Nests, Phase, Seat
from spieltisch.games.auweier.view import AuweierView
from spieltisch.native import NativeGame
from spieltisch.native.auweier import belief_code, canonical
from tests.native.agreement import REQUIRE_VARIABLE, configs, require_native

require_native("auweier")
if not hasattr(NativeGame(Auweier(2)).native, "sample_worlds"):  # a core built before the hook
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail("the native core has no sample_worlds: rebuild it", pytrace=False)
    pytest.skip("the native core predates sample_worlds: rebuild it", allow_module_level=True)

GAME = "auweier"
CONFIGS = configs(GAME)
WORLDS = 6
"""Native worlds checked per view."""
DRAWS = 4000
"""Worlds drawn by each sampler for the distribution test."""


# --- reading a canonical code back -------------------------------------------------------


class _Code:
    """A canonical code read front to back."""

    def __init__(self, code: Sequence[int]) -> None:
        self.code = code
        self.at = 0

    def one(self) -> int:
        value = self.code[self.at]
        self.at += 1
        return value

    def some(self, count: int) -> tuple[int, ...]:
        values = tuple(self.code[self.at : self.at + count])
        self.at += count
        return values

    def cards(self) -> tuple[Card, ...]:
        return tuple(Card(kind) for kind in self.some(self.one()))


def state_of_canonical(config: Config, code: Sequence[int]) -> AuweierState:
    """The Python state whose canonical code is ``code`` (the layout of
    :func:`spieltisch.native.auweier.canonical`)."""
    read = _Code(code)
    players, females = config.players, config.females
    stage, player = tuple(Stage)[read.one()], read.one()
    seats = []
    for _ in range(players):
        hand = read.some(KINDS)
        pile = read.cards()
        known = read.one()
        shown = read.some(KINDS)
        stacks = tuple(read.cards() for _ in range(females))
        seats.append(Seat(hand, pile, known, shown, stacks, read.one()))
    totals = tuple(read.some(players) for _ in range(females))
    phase = None
    if read.one():
        opener, weddings, passed = read.one(), read.some(players), read.one()
        phase = Phase(opener, weddings, passed, read.some(players))
    laid = read.some(females)
    won = tuple(
        tuple(Egg(Colour(read.one()), read.one()) for _ in range(read.one()))
        for _ in range(players)
    )
    last = None
    if read.one():
        opener = read.one()
        awards = tuple(Award(read.one(), Colour(read.one()), read.one()) for _ in range(read.one()))
        cleared = tuple((Colour(read.one()), read.one()) for _ in range(read.one()))
        last = Mating(opener, awards, cleared)
    end_code = read.one()
    end = None if end_code == 0 else tuple(End)[end_code - 1]
    assert read.at == len(code), "the canonical code is longer than its layout"
    nests = Nests(config, laid, won, last, end)
    return AuweierState(nests, stage, player, tuple(seats), totals, phase)


# --- views from random games ------------------------------------------------------------


def _game_states(game: Auweier, rng: random.Random) -> list[AuweierState]:
    """Every state of one random game, the end included."""
    state = game.initial_state()
    states = [state]
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def _picked(states: list[AuweierState], rng: random.Random) -> list[AuweierState]:
    """A state while the decks are set up, the first of play, two more along the way, the
    last before the end and the end."""
    setup = [s for s in states if s.stage in (Stage.ORDER, Stage.SHUFFLE, Stage.SPREAD)]
    play = [s for s in states if s.stage not in (Stage.ORDER, Stage.SHUFFLE, Stage.SPREAD)]
    picked = [rng.choice(setup)] if setup else []
    if len(play) > 2:
        picked += [play[0], *rng.sample(play[1:-1], min(2, len(play) - 2)), play[-2]]
    return [*picked, states[-1]]


def _views(config_index: int) -> Iterator[tuple[Auweier, AuweierView]]:
    config = CONFIGS[config_index]
    game = Auweier(config.players, **config.options)
    rng = random.Random(5000 + config_index)
    for state in _picked(_game_states(game, rng), rng):
        for viewer in [*range(config.players), None]:
            yield game, state.view(viewer)


def _native(game: Auweier) -> Any:
    return NativeGame(game).native


def _check_world(game: Auweier, view: AuweierView, world: Sequence[int]) -> None:
    state = state_of_canonical(game.config, world)
    assert canonical(state) == tuple(world)
    assert state.view(view.viewer) == view
    if view.stage is Stage.PLAY and view.player != view.viewer:
        assert state.legal_actions(), "the player to move was dealt no card they can play"


@pytest.mark.parametrize("config_index", range(len(CONFIGS)), ids=[str(c) for c in CONFIGS])
def test_native_worlds_show_the_view(config_index: int) -> None:
    for count, (game, view) in enumerate(_views(config_index)):
        worlds = _native(game).sample_worlds(list(belief_code(view)), WORLDS, count)
        assert len(worlds) == WORLDS
        for world in worlds:
            _check_world(game, view, world)


def test_a_seed_draws_the_same_worlds() -> None:
    game, view = next(v for v in _views(0) if v[1].stage is Stage.PLAY)
    code = list(belief_code(view))
    native = _native(game)
    assert native.sample_worlds(code, 20, 7) == native.sample_worlds(code, 20, 7)
    assert native.sample_worlds(code, 20, 7) != native.sample_worlds(code, 20, 8)


# --- the same distribution --------------------------------------------------------------


def _features(state: AuweierState, view: AuweierView) -> Iterator[tuple[object, int]]:
    """What a world hides, as categorical variables: each seat's count of every card
    kind in hand, and every seat's next card to draw, the card after the known part of the
    viewer's pile and each pile's last card (-1 for none)."""
    known = len(view.pile_known)
    for p, seat in enumerate(state.seats):
        for kind, count in enumerate(seat.hand):
            yield ("hand", p, kind), count
        pile = seat.pile
        yield ("first", p), pile[0] if pile else -1
        yield ("last", p), pile[-1] if pile else -1
        if p == view.viewer:
            yield ("unknown", p), pile[known] if len(pile) > known else -1


def _tallies(worlds: Iterator[AuweierState], view: AuweierView) -> dict[object, Counter[int]]:
    tallies: dict[object, Counter[int]] = {}
    for world in worlds:
        for name, value in _features(world, view):
            tallies.setdefault(name, Counter())[value] += 1
    return tallies


def chi_square_limit(df: int, z: float = 4.265) -> float:
    """The chi-square value with ``df`` degrees of freedom exceeded with probability about
    1e-5 (``z``: the normal quantile), by the Wilson-Hilferty approximation: with some 200
    variables tested, a sampler that is right fails about one seed in 500."""
    k = 2 / (9 * df)
    return df * (1 - k + z * math.sqrt(k)) ** 3


def homogeneity(first: Counter[int], second: Counter[int]) -> tuple[float, int]:
    """The two-sample chi-square statistic of two tallies of one variable and its degrees of
    freedom (values seen fewer than 5 times in all are pooled)."""
    both = first + second
    rare = {value for value, n in both.items() if n < 5}
    pooled = [(first[v], second[v]) for v in both if v not in rare]
    if rare:
        pooled.append((sum(first[v] for v in rare), sum(second[v] for v in rare)))
    n1, n2 = sum(first.values()), sum(second.values())
    statistic = 0.0
    for a, b in pooled:
        total = a + b
        for observed, n in ((a, n1), (b, n2)):
            expected = total * n / (n1 + n2)
            statistic += (observed - expected) ** 2 / expected
    return statistic, len(pooled) - 1


def _view_at(
    players: int, seed: int, viewer: int, pick: Callable[[AuweierState], bool], **options: Any
) -> tuple[Auweier, AuweierView]:
    """The view for ``viewer`` of the first state of a random game that ``pick`` accepts."""
    game = Auweier(players, **options)
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        for state in _game_states(game, rng):
            if pick(state):
                return game, state.view(viewer)
    raise AssertionError("no such state in 200 games")


def _mid_play(state: AuweierState) -> bool:
    return state.stage is Stage.PLAY and state.player == 1 and sum(state.nests.laid) >= 2


def _own_shuffle(state: AuweierState) -> bool:
    seat = state.seats[0]
    return state.stage is Stage.PLAY and state.player == 2 and len(seat.pile) - seat.known >= 4


def _setup_with_a_ready_deck(state: AuweierState) -> bool:
    return state.stage is Stage.ORDER and state.player == 2 and len(state.seats[2].pile) >= 3


def _view_in_game(
    players: int, seed: int, step: int, viewer: int, **options: Any
) -> tuple[Auweier, AuweierView]:
    """The view for ``viewer`` after ``step`` steps of the random game seeded ``seed``."""
    game = Auweier(players, **options)
    return game, _game_states(game, random.Random(seed))[step].view(viewer)


DISTRIBUTION_VIEWS = {
    "mid-game": lambda: _view_at(3, 1, 0, _mid_play),
    "own-shuffled-pile": lambda: _view_at(3, 2, 0, _own_shuffle, lucky_eggs=True),
    "setup": lambda: _view_at(4, 3, 3, _setup_with_a_ready_deck),
    # player 1 to move, whom about a quarter of the deals leave with no card they can play
    "stuck-mover": lambda: _view_in_game(3, 9, 92, 0, hand_size=3, closed_nests=True),
}


@pytest.mark.parametrize("name", DISTRIBUTION_VIEWS)
def test_native_and_python_draw_the_same_worlds(name: str) -> None:
    game, view = DISTRIBUTION_VIEWS[name]()
    native_worlds = _native(game).sample_worlds(list(belief_code(view)), DRAWS, 11)
    native = _tallies((state_of_canonical(game.config, w) for w in native_worlds), view)
    rng = random.Random(12)
    python = _tallies((state_of(view, rng) for _ in range(DRAWS)), view)
    assert native.keys() == python.keys()
    tested = 0
    for feature, tally in python.items():
        statistic, df = homogeneity(tally, native[feature])
        if df == 0:
            continue
        tested += 1
        assert statistic < chi_square_limit(df), f"{feature}: chi-square {statistic:.1f}, df {df}"
    assert tested > 0


# --- refused codes ------------------------------------------------------------------------


def _a_code() -> tuple[Auweier, list[int]]:
    game, view = _view_at(3, 1, 0, _mid_play)
    return game, list(belief_code(view))


def test_malformed_codes_are_refused() -> None:
    game, code = _a_code()
    native = _native(game)
    for bad in (
        code[:-1],
        [*code, 0],
        [],
        [9, *code[1:]],
        [2, *code[1:]],
        [*code[:5], 99, *code[6:]],
    ):
        with pytest.raises(InvalidActionError):
            native.sample_worlds(bad, 1, 0)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_changed_codes_are_refused_or_sampled_never_crash(data: st.DataObject) -> None:
    game, code = _a_code()
    at = data.draw(st.integers(0, len(code) - 1))
    code[at] = data.draw(st.integers(-3, 60))
    try:
        worlds = _native(game).sample_worlds(code, 3, 0)
    except InvalidActionError:
        return
    assert len(worlds) == 3
