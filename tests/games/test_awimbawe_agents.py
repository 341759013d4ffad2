"""Awimbawé agents: what the round remembers, belief sampling checked against exact
enumeration, and the heuristic bot."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations, permutations
from typing import Unpack

import pytest

import spieltisch
from spieltisch.agents import IsmctsAgent, agent_names
from spieltisch.core.game import Move
from spieltisch.games.awimbawe import Awimbawe, AwimbaweState, Card, Land, Pick, Side, Stage
from spieltisch.games.awimbawe.belief import redeal_hidden, sample_state
from spieltisch.games.awimbawe.bots import (
    BETWEEN_ROUNDS,
    HeuristicAgent,
    book,
    evaluate,
    match_odds,
)
from spieltisch.games.awimbawe.memory import BlindVoid, bits_lands
from spieltisch.games.awimbawe.notation import DECK, LEAD_ME, card_code
from spieltisch.lab import arena
from tests.games.test_awimbawe import C, Options, drive, side, table

SEAT_0, SEAT_1 = 0, 1


# --- Exact posteriors, by replaying every hidden deal -----------------------------------------


def start_worlds(state: AwimbaweState, viewer: int | None) -> Iterator[AwimbaweState]:
    """Every state that shows ``state``'s view to ``viewer`` before anything is remembered:
    the hands the viewer cannot see and all face-down cards dealt in every possible way."""
    sides = state.sides
    hidden = [p for p in (0, 1) if p != viewer]
    pool = [c for p in hidden for c in sides[p].hand]
    pool += [c for s in sides for c in sorted(s.down, key=card_code)]
    sizes = [len(sides[p].hand) for p in hidden]

    def deals(cards: list[Card], counts: list[int]) -> Iterator[list[tuple[Card, ...]]]:
        if not counts:
            yield []
            return
        for hand in combinations(cards, counts[0]):
            rest = [c for c in cards if c not in hand]
            for more in deals(rest, counts[1:]):
                yield [hand, *more]

    for hands in deals(pool, sizes):
        rest = [c for c in pool if not any(c in h for h in hands)]
        for order in permutations(rest):
            fill = iter(order)
            new_sides = []
            for p, old in enumerate(sides):
                hand = hands[hidden.index(p)] if p in hidden else old.hand
                piles = tuple(
                    tuple(next(fill) if c in old.down else c for c in pile) for pile in old.piles
                )
                down = frozenset(
                    c
                    for pile, was in zip(piles, old.piles, strict=True)
                    for c, w in zip(pile, was, strict=True)
                    if w in old.down
                )
                new_sides.append(Side(tuple(sorted(hand, key=card_code)), piles, down, frozenset()))
            yield AwimbaweState(
                state.match,
                tuple(new_sides),
                state.tallies,
                state.stage,
                state.actor,
                (),
                None,
                None,
            )


def exact_posterior(
    start: AwimbaweState, moves: list[str], viewer: int | None
) -> tuple[AwimbaweState, dict[tuple[Side, ...], Fraction]]:
    """The real end state, and the exact probability of every hidden deal at the end given
    what ``viewer`` saw: every start deal is equally likely; each is replayed through the
    same moves (a blind pick through each of its outcomes, with its chance), and kept while
    every view the viewer gets is the one they really got."""
    real = [start]
    for text in moves:
        real.append(real[-1].apply(real[-1].parse(text)))
    seen = [s.view(viewer) for s in real]
    weights: dict[tuple[Side, ...], Fraction] = {}
    for world in start_worlds(start, viewer):
        branches = [(world, Fraction(1))] if world.view(viewer) == seen[0] else []
        for step, text in enumerate(moves, start=1):
            grown = []
            for state, chance in branches:
                move: Move = state.parse(text)
                if isinstance(move, Pick):
                    options = [(m, p) for m, p in state.chance_outcomes()]
                elif move in state.legal_actions():
                    options = [(move, Fraction(1))]
                else:
                    options = []
                for option, p in options:
                    after = state.apply(option)
                    if after.view(viewer) == seen[step]:
                        grown.append((after, chance * p))
            branches = grown
        for state, chance in branches:
            weights[state.sides] = weights.get(state.sides, Fraction(0)) + chance
    total = sum(weights.values())
    return real[-1], {key: w / total for key, w in weights.items()}


def chi_square_p_value(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom (through the series
    of the regularized lower incomplete gamma function)."""
    a, x = df / 2, statistic / 2
    if x <= 0:
        return 1.0
    term = total = 1 / a
    n = 0
    while term > total * 1e-16:
        n += 1
        term *= x / (a + n)
        total += term
    lower = total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    return max(0.0, 1.0 - lower)


def test_the_chi_square_tail_matches_known_points() -> None:
    assert chi_square_p_value(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_p_value(124.342, 100) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_p_value(0.0, 5) == 1.0


def void_position() -> AwimbaweState:
    """Seat 1 holds no desert card in hand; two desert cards lie face down."""
    return table(
        side("D6 G2", ("~D1 M1", "G4", "", "")),
        side("S7 G1 G3 P2", ("~D2 P5", "~M5 M6", "", "")),
        leader=SEAT_0,
    )


def blind_position(**options: Unpack[Options]) -> AwimbaweState:
    """Seat 1's only desert hand card is D3; seat 0 leads the desert snake."""
    return table(
        side("D5 G6", ("~D1 M2", "G4", "P1", "")),
        side("D3 S8 G1 P2 M4", ("~D2 P6", "~M6 G5", "", "")),
        leader=SEAT_0,
        **options,
    )


def small_blind_position() -> AwimbaweState:
    return table(
        side("D5 G6", ("M2", "", "", "")), side("D3 S8 G1", ("~D2 P6", "", "", "")), leader=0
    )


CASES = {
    "a void": (void_position, ["play D6", "play S7 fight"], SEAT_0, {}),
    "the void player's own view": (void_position, ["play D6", "play S7 fight"], SEAT_1, {}),
    "a spectator: two hidden hands": (void_position, ["play D6", "play S7 fight"], None, {}),
    "a blind void": (
        blind_position,
        ["play D5", "block hand", "pick D3", "play S8 fight"],
        SEAT_0,
        {},
    ),
    "a blind void settled": (
        blind_position,
        ["play D5", "block hand", "pick D3", "play S8 fight", "play D3"],
        SEAT_0,
        {},
    ),
    "a shown blind pick": (
        blind_position,
        ["play D5", "block hand", "pick D3", "play S8 fight"],
        SEAT_0,
        {"blind_pick_shown": True},
    ),
    "a blind block not yet lifted": (
        small_blind_position,
        ["play D5", "block hand", "pick D3"],
        SEAT_0,
        {},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_sampled_states_follow_the_exact_posterior(case: str) -> None:
    make, moves, viewer, options = CASES[case]
    start = make(**options) if options else make()
    end, exact = exact_posterior(start, moves, viewer)
    game = Awimbawe(2, **options)
    view = end.view(viewer)
    draws = max(6000, 200 * len(exact))
    rng = random.Random(2024)
    counts = Counter(sample_state(game, view, rng).sides for _ in range(draws))
    assert set(counts) <= set(exact), "the sampler drew a hidden deal the play rules out"
    statistic = sum(
        (counts[key] - draws * float(p)) ** 2 / (draws * float(p)) for key, p in exact.items()
    )
    p_value = chi_square_p_value(statistic, len(exact) - 1)
    assert p_value > 0.001, f"{case}: chi-square {statistic:.1f} on {len(exact) - 1} df"


def test_the_exact_posteriors_have_the_expected_shape() -> None:
    # A plain void: seat 1 keeps three of the four non-desert unseen cards, in 3! orders of
    # the face-down cards: 24 deals, equally likely.
    _, exact = exact_posterior(void_position(), ["play D6", "play S7 fight"], SEAT_0)
    assert len(exact) == 24 and set(exact.values()) == {Fraction(1, 24)}
    # A blind void: the blocked card was one of four (S8 was played, so not blocked). A hand
    # with no desert card is explained by any of them, one with one desert card by one pick.
    moves = ["play D5", "block hand", "pick D3", "play S8 fight"]
    _, exact = exact_posterior(blind_position(), moves, SEAT_0)
    deserts = Counter(sum(c.land is Land.DESERT for c in key[1].hand) for key in exact)
    assert deserts == {0: 6, 1: 72}
    weights = {sum(c.land is Land.DESERT for c in k[1].hand): p for k, p in exact.items()}
    assert weights == {0: Fraction(4, 96), 1: Fraction(1, 96)}


# --- What the round remembers ----------------------------------------------------------------


def test_a_player_who_cannot_follow_is_remembered_void_in_hand_only() -> None:
    state = drive(void_position(), "play D6", "play S7 fight")
    for viewer in (0, 1, None):
        view = state.view(viewer)
        assert view.sides[1].void == (Land.DESERT,)  # an eagle was played: no sky void
        assert view.sides[0].void == ()
        on_table = {c for s in state.sides for c in (*s.hand, *(c for p in s.piles for c in p))}
        assert set(view.played) == set(DECK) - on_table  # the table's rest counts as played
        assert {C("D6"), C("S7")} <= set(view.played)
    game = Awimbawe()
    rng = random.Random(1)
    face_down_deserts = 0
    for _ in range(300):
        sampled = sample_state(game, state.view(0), rng)
        assert not any(c.land is Land.DESERT for c in sampled.sides[1].hand)
        face_down_deserts += sum(c.land is Land.DESERT for s in sampled.sides for c in s.down)
    assert face_down_deserts == 600  # both unseen desert cards always lie face down


def test_a_discard_shows_no_eagle_either() -> None:
    state = table(side("D6 G2", ("", "", "", "")), side("G1 P2", ("", "", "", "")), leader=0)
    state = drive(state, "play D6", "play G1")
    assert state.view(0).sides[1].void == (Land.DESERT, Land.SKY)


def test_voids_are_forgotten_when_the_round_ends() -> None:
    state = table(side("D6", ("", "", "", "")), side("G1", ("", "", "", "")), leader=0)
    state = drive(state, "play D6", "play G1")
    assert state.stage is Stage.CHOOSE_LEADER
    assert state.view(0).sides[1].void == () and state.view(0).played == ()


def test_a_blind_blocked_card_weakens_the_void_until_it_is_played() -> None:
    state = drive(blind_position(), "play D5", "block hand", "pick D3", "play S8 fight")
    view = state.view(0)
    assert view.sides[1].void == ()
    assert view.sides[1].blind_voids == (BlindVoid((Land.DESERT,), 1, 4, 0),)
    state = drive(state, "play D3")  # it was the blocked card: the void is plain now
    assert state.view(0).sides[1].void == (Land.DESERT,)
    assert state.view(0).sides[1].blind_voids == ()


def test_a_shown_blind_pick_is_remembered_in_the_hand_until_played() -> None:
    state = drive(
        blind_position(blind_pick_shown=True), "play D5", "block hand", "pick D3", "play S8 fight"
    )
    view = state.view(0)
    assert view.sides[1].shown == (C("D3"),) and view.sides[1].void == (Land.DESERT,)
    game = Awimbawe(2, blind_pick_shown=True)
    sampled = sample_state(game, view, random.Random(3))
    assert C("D3") in sampled.sides[1].hand
    state = drive(state, "play D3")
    assert state.view(0).sides[1].shown == ()


def test_when_every_card_was_blocked_the_void_is_plain() -> None:
    # Seat 1 has G6 on pile 1 and M4 in hand, both blocked, and P6 on pile 2 over a
    # face-down card; seat 0's rhinoceros buries P6, so every available card is blocked and
    # the blocks are lifted for the answer: it shows a plain void, blocked hand card or not.
    state = table(
        side("D2 D3", ("", "", "", "")),
        side("M4", ("G6", "~M5 P6", "", ""), blocked="G6 M4"),
        leader=0,
    )
    state = drive(state, "play D2", "move 2 under 1", "play G6")
    assert state.view(0).sides[1].void == (Land.DESERT, Land.SKY)


# --- The sampler on random games -------------------------------------------------------------


def random_positions(seed: int, count: int, **options: bool) -> Iterator[AwimbaweState]:
    rng = random.Random(seed)
    game = spieltisch.load("awimbawe", **options)
    assert isinstance(game, Awimbawe)
    while True:
        state = game.initial_state()
        while not state.is_terminal():
            if state.stage is not Stage.DEAL:
                yield state
                count -= 1
                if not count:
                    return
            legal = state.legal_actions()
            state = state.apply(
                state.sample_chance(rng) if state.is_chance() else legal[rng.randrange(len(legal))]
            )


def test_seen_cards_never_reappear_and_the_viewers_face_down_cards_are_redrawn() -> None:
    game = Awimbawe()
    rng = random.Random(5)
    own_redrawn = 0
    for state in random_positions(11, 400):
        viewer = state.current_player() if state.current_player() is not None else 0
        assert viewer is not None
        view = state.view(viewer)
        sampled = sample_state(game, view, rng)
        seen = set(view.played) | set(view.trick) | set(state.sides[viewer].hand)
        seen |= {c for s in view.sides for pile in s.piles for c in pile if c is not None}
        hidden = set(sampled.sides[1 - viewer].hand) | sampled.sides[0].down
        hidden |= sampled.sides[1].down
        assert not hidden & seen
        assert sampled.view(viewer) == view
        assert sampled.sides[viewer].hand == state.sides[viewer].hand
        own_redrawn += sampled.sides[viewer].down != state.sides[viewer].down
    assert own_redrawn > 100


def test_the_true_hands_always_agree_with_what_the_round_remembers() -> None:
    blind_voids = 0
    for state in random_positions(12, 6000):
        for p, held in enumerate(state.sides):
            view = state.view(None).sides[p]
            others = [c for c in held.hand if c not in view.shown]
            assert not any(c.land in view.void for c in others), (p, view.void, held.hand)
            for record in view.blind_voids:
                blind_voids += 1
                assert record.weight(sum(c.land in record.lands for c in held.hand)) > 0
    assert blind_voids > 0


# --- The redeal of hidden cards, from the state itself ---------------------------------------


@pytest.mark.parametrize("options", [{}, {"blind_pick_shown": True}])
def test_a_redeal_draws_as_the_sampler_draws_from_a_faithful_view(options: dict[str, bool]) -> None:
    # Two doors, one drawing: the same cards, the same facts, the same random draws.
    game = Awimbawe(2, **options)
    for n, state in enumerate(random_positions(13, 500, **options)):
        for observer in (None, 0, 1):
            redealt = redeal_hidden(state, observer, random.Random(n))
            assert redealt == sample_state(game, state.view(observer), random.Random(n))


def face_up_layout(side: Side) -> list[list[Card | None]]:
    return [[None if c in side.down else c for c in pile] for pile in side.piles]


@pytest.mark.parametrize("options", [{}, {"blind_pick_shown": True}])
def test_a_redeal_moves_only_hidden_cards_and_keeps_what_the_round_shows(
    options: dict[str, bool],
) -> None:
    rng = random.Random(6)
    changed = blind_blocks = 0
    for state in random_positions(14, 1500, **options):
        for observer in (None, 0, 1):
            other = redeal_hidden(state, observer, rng)
            assert other.memory is state.memory and other.tallies is state.tallies
            assert (other.stage, other.actor, other.trick) == (
                state.stage,
                state.actor,
                state.trick,
            )
            hidden_before: set[Card] = set()
            hidden_after: set[Card] = set()
            for p, (old, new) in enumerate(zip(state.sides, other.sides, strict=True)):
                assert face_up_layout(new) == face_up_layout(old)  # face-down places kept
                assert len(new.hand) == len(old.hand)
                hidden_before |= old.down
                hidden_after |= new.down
                if p == observer:
                    assert new.hand == old.hand and new.blocked == old.blocked
                    continue
                shown = state.memory.shown[p]
                assert shown <= set(new.hand)
                hidden_before |= set(old.hand) - shown
                hidden_after |= set(new.hand) - shown
                void = bits_lands(state.memory.void[p])
                assert not any(c.land in void for c in new.hand if c not in shown)
                for record in state.memory.blind[p]:
                    held = sum(c.land in record.lands for c in new.hand)
                    assert record.weight(held) > 0
                blind = old.blocked & set(old.hand)
                if blind and not options:
                    blind_blocks += 1
                assert old.blocked - blind <= new.blocked  # named blocks stay
                assert len(new.blocked) == len(old.blocked)
                assert new.blocked - (old.blocked - blind) <= set(new.hand)
            assert hidden_after == hidden_before  # the hidden cards, among the hidden places
            changed += other != state
    assert changed > 3000 and (blind_blocks > 0 or options)


def test_a_redeal_keeps_a_state_with_nothing_hidden() -> None:
    over = table(side("D6", ("", "", "", "")), side("G1", ("", "", "", "")), leader=0)
    over = drive(over, "play D6", "play G1")  # the round is over: nothing is on the table
    assert all(redeal_hidden(over, p, random.Random(1)) is over for p in (None, 0, 1))


def test_future_chance_stays_fresh() -> None:
    game = Awimbawe()
    state = drive(small_blind_position(), "play D5", "block hand")
    sampled = sample_state(game, state.view(0), random.Random(1))
    assert sampled.is_chance() and len(sampled.chance_outcomes()) == 3  # the pick is not drawn
    over = table(side("D6", ("", "", "", "")), side("G1", ("", "", "", "")), leader=0)
    over = drive(over, "play D6", "play G1", "lead me")
    assert over.stage is Stage.DEAL
    assert sample_state(game, over.view(1), random.Random(1)) == over  # nothing dealt yet


def test_the_sampler_refuses_views_it_cannot_show() -> None:
    state = void_position()
    with pytest.raises(TypeError):
        sample_state(Awimbawe(), object(), random.Random(1))
    with pytest.raises(ValueError, match="options"):
        sample_state(Awimbawe(2, blind_pick_shown=True), state.view(0), random.Random(1))


# --- The heuristic ---------------------------------------------------------------------------


def heuristic_move(state: AwimbaweState, seat: int | None = None) -> str:
    player = state.current_player() if seat is None else seat
    assert player is not None
    agent = HeuristicAgent(state.game, 0)
    return str(agent.act(state.view(player), state.legal_actions()))


def test_every_level_is_offered_strongest_first() -> None:
    # the shipped self-play policy beats the heuristic (59.1%), not the search
    assert agent_names(Awimbawe()) == ("ismcts", "learned", "heuristic", "random")
    assert agent_names(Awimbawe(rounds_to_win=3)) == ("ismcts", "heuristic", "random")


def test_it_takes_a_trick_with_its_cheapest_winning_card() -> None:
    # Seat 1 leads the grassland rhinoceros: the cheetah takes it as well as the elephant.
    state = table(side("G3 G6 P5", ("", "", "", "")), side("G2 D5", ("", "", "", "")), leader=1)
    assert heuristic_move(drive(state, "play G2")) == "play G3"


def test_it_throws_away_few_crowns_when_it_must_lose() -> None:
    state = table(side("G1 G5", ("", "", "", "")), side("D6 P5", ("", "", "", "")), leader=1)
    assert heuristic_move(drive(state, "play D6")) == "play G5"


def test_with_three_hyenas_it_ducks_a_hyena_and_otherwise_takes_it() -> None:
    hands = side("D2 D6 P5", ("", "", "", "")), side("D4 G5 M5", ("", "", "", ""))
    assert heuristic_move(drive(table(*hands, leader=1, hyenas=(3, 0)), "play D4")) == "play D2"
    assert heuristic_move(drive(table(*hands, leader=1), "play D4")) == "play D6"


def test_it_hands_a_fourth_hyena_to_an_opponent_with_three() -> None:
    state = table(side("G4 G5", ("", "", "", "")), side("D2 P5", ("", "", "", "")), leader=1,
                  hyenas=(0, 3))  # fmt: skip
    state = drive(state, "play D2")
    assert heuristic_move(state) == "play G4"
    state = drive(state, "play G4")
    assert state.match.results[-1].fourth_hyena and state.match.results[-1].winner == 0


def test_an_eagle_fights_for_crowns_and_flees_from_a_fourth_hyena() -> None:
    hands = side("S7 G5", ("", "", "", "")), side("D1 D4 P5", ("", "", "", ""))
    assert heuristic_move(drive(table(*hands, leader=1), "play D1")) == "play S7 fight"
    fourth = table(*hands, leader=1, hyenas=(3, 0))
    assert heuristic_move(drive(fourth, "play D4")) == "play S7 flee"


def test_a_leading_snake_blocks_the_card_that_would_beat_it() -> None:
    state = table(side("D5 G2", ("", "", "", "")), side("P1", ("D6", "D2", "", "")), leader=0)
    assert heuristic_move(drive(state, "play D5")) == "block 1"


def test_a_leading_rhinoceros_buries_the_eagle_of_a_player_without_the_land() -> None:
    state = table(side("D2 G2", ("", "", "", "")), side("P1 P2", ("S9", "G6", "", "")), leader=0)
    assert heuristic_move(drive(state, "play D2")) == "move 1 under 2"


def test_the_book_names_a_leader_for_no_trick_without_thinking() -> None:
    last = table(side("G3", ("", "", "", "")), side("G2", ("", "", "", "")), leader=1)
    last = drive(last, "play G2", "play G3")
    assert last.stage is Stage.CHEETAH
    assert book(last.view(0), last.legal_actions()) == LEAD_ME
    search = IsmctsAgent(last.game, 1, iterations=50)
    assert search.act(last.view(0), last.legal_actions()) == LEAD_ME
    assert search.last is not None and search.last.iterations == 0
    earlier = table(side("G3 P5", ("", "", "", "")), side("G2 P6", ("", "", "", "")), leader=1)
    earlier = drive(earlier, "play G2", "play G3")
    assert book(earlier.view(0), earlier.legal_actions()) is None


def test_it_explains_its_choice_and_refuses_other_games_views() -> None:
    state = table(side("G1 G5", ("", "", "", "")), side("D6 P5", ("", "", "", "")), leader=1)
    state = drive(state, "play D6")
    agent = HeuristicAgent(state.game, 0)
    text = agent.explain(state.view(0), state.legal_actions())
    assert text.startswith("heuristic: play G5") and "crowns" in text
    with pytest.raises(TypeError):
        agent.act(object(), state.legal_actions())  # type: ignore[arg-type]


def test_it_plays_only_legal_moves_from_views() -> None:
    game = Awimbawe()
    for seed in range(6):
        rng = random.Random(seed)
        agents = [HeuristicAgent(game, seed), HeuristicAgent(game, seed + 1)]
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            player = state.current_player()
            assert player is not None
            move = agents[player].act(state.view(player), state.legal_actions())
            assert move in state.legal_actions()
            state = state.apply(move)


def test_it_beats_random_in_a_seeded_arena() -> None:
    game = Awimbawe()
    lineup = ["heuristic", "random"]
    results = arena.run(arena.schedule(game, lineup, 60, seed=1))
    rows = arena.summarise(results, lineup).agents
    assert rows[0].agent == "heuristic" and rows[0].win_rate >= 0.75


def test_match_odds_count_the_rounds_still_needed() -> None:
    assert match_odds((1, 2)) == 0.75 and match_odds((2, 1)) == 0.25
    assert match_odds((1, 1)) == match_odds((2, 2)) == 0.5
    assert match_odds((0, 1)) == 1.0


def test_playouts_stop_between_rounds_and_value_the_match() -> None:
    game = spieltisch.load("awimbawe")
    rng = random.Random(5)
    state = game.initial_state()
    valued = []
    while not state.is_terminal():
        value = evaluate(state)
        if value is not None:
            assert isinstance(state, AwimbaweState) and state.stage in BETWEEN_ROUNDS
            valued.append((state.match.wins, value))
        elif isinstance(state, AwimbaweState) and state.stage is Stage.PLAY:
            assert evaluate(state) is None
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    assert valued, "a match of several rounds passes between rounds"
    for wins, (mine, theirs) in valued:
        assert mine + theirs == 1 and (mine > theirs) == (wins[0] > wins[1])
    assert evaluate(game.initial_state()) is None  # the first deal is not 'between rounds'
