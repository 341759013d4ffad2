"""Auf die Nüsse! agents: belief sampling rebuilds the exact position, what is drawn after it
follows the unseen cards, and the heuristic plays like a careful human and beats random."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

import spieltisch
from spieltisch.agents import agent_names, game_book, make_agent
from spieltisch.agents.ismcts import EXPLORATION, IsmctsAgent
from spieltisch.core.game import Move
from spieltisch.games import kit_of
from spieltisch.games.auf_die_nuesse import (
    KEEP,
    PASS,
    ROLL_AGAIN,
    STOP,
    AufDieNuesse,
    Card,
    Draw,
    Ending,
    Lay,
    NuesseState,
    Nut,
    Place,
    Put,
    Setup,
    Slot,
    Space,
    Stage,
    Steal,
    Take,
    fail_chance,
)
from spieltisch.games.auf_die_nuesse.belief import sample_state, state_of
from spieltisch.games.auf_die_nuesse.bots import (
    SEARCH,
    HeuristicAgent,
    Judge,
    book,
    book_reason,
    search,
)
from spieltisch.games.auf_die_nuesse.model import STORE_SIZES, Store
from spieltisch.games.auf_die_nuesse.notation import CARDS, DICE
from spieltisch.lab.arena import run, schedule, summarise
from spieltisch.lab.play import play_game
from tests.games.test_auf_die_nuesse import (
    WA,
    WH,
    A,
    B,
    H,
    W,
    drive,
    ending_table,
    first_choice,
    full,
    placed,
    settle,
    store,
    stores,
    table,
)

# --- Belief sampling ---------------------------------------------------------------------------


def random_positions(players: int, seed: int) -> list[NuesseState]:
    """Every position of one seeded random game."""
    rng = random.Random(seed)
    state = AufDieNuesse(players).initial_state()
    seen = [state]
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        seen.append(state)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_players_view_rebuilds_the_very_state(players: int) -> None:
    game = AufDieNuesse(players)
    draw = random.Random(9)
    for seed in range(6):
        for state in random_positions(players, seed):
            for viewer in (*range(players), None):
                assert sample_state(game, state.view(viewer), draw) == state


def test_nothing_is_drawn_at_random_when_nothing_is_hidden() -> None:
    state = random_positions(3, 1)[400]
    rng = random.Random(4)
    before = rng.getstate()
    assert sample_state(AufDieNuesse(3), state.view(2), rng) == state
    assert rng.getstate() == before


def raccoon_at_the_end() -> NuesseState:
    """The pile is used up and nothing lies under 2-4; seat 0 completes the raccoon space, so
    taking a nut leaves two places empty for good."""
    unseen = [0] * len(CARDS)
    position = table(
        2,
        areas={Space.RACCOON_2: (1, 0)},
        face_up=(None, W, B, H),
        holdings={1: stores(s3=store(Nut.WALNUT, 2), s5=store(Nut.ACORN, 1))},
        unseen=unseen,
        pile=0,
        set_aside=0,
    )
    market = replace(position.board.market, ending=Ending.TRIGGERED)
    return drive(placed(replace(position, board=replace(position.board, market=market)), 7), "stop")


def test_a_nut_in_hand_shows_where_it_came_from_and_whether_a_theft_is_owed() -> None:
    taken = drive(raccoon_at_the_end(), "take 8-9")
    stolen = drive(raccoon_at_the_end(), "pass", "steal P2 S3")
    assert taken.stage is stolen.stage is Stage.PUT
    assert taken.board.market.face_up == (None, W, None, H)
    assert (taken.view(1).refill, taken.view(1).theft) == (Slot.EIGHT_NINE, True)
    assert (stolen.view(1).refill, stolen.view(1).theft) == (None, False)
    game = AufDieNuesse(2)
    for state, theft_follows in ((taken, True), (stolen, False)):
        sampled = sample_state(game, state.view(1), random.Random(0))
        assert sampled == state
        after = drive(sampled, "put walnut S1" if state is stolen else "put beechnut S1")
        assert (after.stage is Stage.STEAL) is theft_follows


def test_a_joker_dealt_at_the_start_may_be_kept_but_one_stored_at_the_end_may_not() -> None:
    dealt = drive(AufDieNuesse(2).initial_state(), *["draw walnut"] * 4, "draw walnut/hazelnut")
    late = drive(placed(ending_table(), 3), "stop", "put acorn S1", "draw walnut")
    late = drive(late, "take 2-4", "put walnut S1", "draw walnut")
    late, _, _ = settle(late, first_choice, lambda s: s.view(None).pending is Card.WALNUT_BEECHNUT)
    for state, keep in ((dealt, True), (late, False)):
        assert state.stage is Stage.PUT and state.view(None).space is None
        sampled = sample_state(state.game, state.view(0), random.Random(0))
        assert sampled == state
        assert (KEEP in sampled.legal_actions()) is keep


def test_the_start_track_squirrels_are_counted_back_into_the_supply() -> None:
    state = placed(table(2), 3, 7, 11)
    view = state.view(1)
    assert view.supply == (12, 15)
    assert state_of(view).board.supply == (15, 15) and state_of(view).track == state.track


def test_the_sampler_refuses_other_views() -> None:
    with pytest.raises(TypeError):
        sample_state(AufDieNuesse(2), "a view", random.Random(0))
    with pytest.raises(ValueError, match="players=3"):
        sample_state(AufDieNuesse(2), table(3).view(0), random.Random(0))


# --- What sampled states draw next ---------------------------------------------------------


def chi_square_p(statistic: float, freedom: int) -> float:
    """The chance that a chi-square variable with ``freedom`` degrees reaches ``statistic``.

    The regularised upper gamma function Q(k/2, x/2), by its recurrence from Q(1/2) or Q(1).
    """
    half = statistic / 2
    if freedom % 2:
        a, q = 0.5, math.erfc(math.sqrt(half))
    else:
        a, q = 1.0, math.exp(-half)
    while a < freedom / 2:
        q += math.exp(a * math.log(half) - half - math.lgamma(a + 1)) if half else 0.0
        a += 1
    return q


def test_chi_square_p_values_match_the_tables() -> None:
    assert chi_square_p(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p(5.991, 2) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p(14.067, 7) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p(24.322, 7) == pytest.approx(0.001, abs=1e-5)


FEW_KINDS = {W: 6, A: 4, WA: 1}
"""Eleven unseen cards of three kinds: eight set aside and three in the pile."""


def double_collection() -> NuesseState:
    """Seat 0 stops with four squirrels on 2-4: it takes the acorn there, then the card drawn
    to replace it, and that card's place is refilled in turn: two draws in a row."""
    unseen = [FEW_KINDS.get(card, 0) for card in CARDS]
    position = table(2, areas={Space.TWO_FOUR: (1, 0)}, unseen=unseen, pile=3)
    return placed(position, 2, 3, 4)


def next_draws(state: NuesseState, rng: random.Random, count: int) -> tuple[Card, ...]:
    """Play on from ``state`` (the first choice at every decision) and return the next draws."""
    drawn: list[Card] = []
    state = state.apply(STOP)
    while len(drawn) < count:
        if state.is_chance():
            move = state.sample_chance(rng)
            assert isinstance(move, Draw)
            drawn.append(move.card)
            state = state.apply(move)
        else:
            state = state.apply(first_choice(state))
    return tuple(drawn)


def exact_draws(state: NuesseState, count: int) -> dict[tuple[Card, ...], Fraction]:
    """The exact chance of each sequence of the next ``count`` draws, from chance_outcomes."""
    state = state.apply(STOP)
    result: dict[tuple[Card, ...], Fraction] = {}

    def walk(state: NuesseState, drawn: tuple[Card, ...], chance: Fraction) -> None:
        while not state.is_chance():
            state = state.apply(first_choice(state))
        for move, p in state.chance_outcomes():
            assert isinstance(move, Draw)
            if len(drawn) + 1 == count:
                result[(*drawn, move.card)] = chance * p
            else:
                walk(state.apply(move), (*drawn, move.card), chance * p)

    walk(state, (), Fraction(1))
    return result


def chi_square(
    observed: Counter[tuple[Card, ...]], exact: dict[tuple[Card, ...], Fraction]
) -> tuple[float, int]:
    """Pearson's statistic of ``observed`` against ``exact``, and its degrees of freedom."""
    samples = sum(observed.values())
    assert set(observed) <= set(exact)  # nothing drawn that could not be
    statistic = sum(
        (observed[cells] - samples * float(p)) ** 2 / (samples * float(p))
        for cells, p in exact.items()
    )
    return statistic, len(exact) - 1


SAMPLES = 4000


@pytest.mark.parametrize("count", [1, 2])
def test_what_sampled_states_draw_next_follows_the_unseen_cards(count: int) -> None:
    state = double_collection()
    exact = exact_draws(state, count)
    total = sum(FEW_KINDS.values())
    if count == 1:
        assert exact == {(card,): Fraction(n, total) for card, n in FEW_KINDS.items()}
    else:  # drawn without replacement: the one joker never comes twice
        assert exact[(WA, W)] == Fraction(1, total) * Fraction(6, total - 1)
        assert (WA, WA) not in exact and len(exact) == 8
    view, game, rng = state.view(1), state.game, random.Random(2024)
    observed = Counter(
        next_draws(sample_state(game, view, rng), rng, count) for _ in range(SAMPLES)
    )
    statistic, freedom = chi_square(observed, exact)
    assert chi_square_p(statistic, freedom) > 0.01


# --- The heuristic -----------------------------------------------------------------------------


def heuristic(state: NuesseState) -> Move:
    return HeuristicAgent(state.game, 0).act(
        state.view(state.current_player()), state.legal_actions()
    )


def test_the_heuristic_is_made_by_name() -> None:
    assert "heuristic" in agent_names(AufDieNuesse(2))
    assert isinstance(make_agent("heuristic", AufDieNuesse(3), 1), HeuristicAgent)


def test_the_heuristic_refuses_views_of_other_games() -> None:
    egg = spieltisch.load("auf-die-eier", 2).initial_state()
    with pytest.raises(TypeError):
        HeuristicAgent(AufDieNuesse(2), 0).act(egg.view(0), ["stop"])  # type: ignore[arg-type]


def rolled(state: NuesseState, dice: str) -> NuesseState:
    return drive(replace(state, stage=Stage.ROLL), dice)


def test_the_heuristic_puts_its_squirrel_where_it_completes_a_2_area_space() -> None:
    # One squirrel already waits on 2-4: a 3 (green 2 + white 1) collects the acorn there.
    state = rolled(table(2, areas={Space.TWO_FOUR: (1, 0)}), "dice G2 W1 W6")
    assert state.legal_actions() == (Place(3), Place(8))
    assert heuristic(state) == Place(3)


def test_with_nothing_to_complete_it_keeps_the_next_roll_least_likely_to_fail() -> None:
    # Green 1 with white 1 or 6: space 2 or 7. A squirrel on 7, the commonest sum, blocks the
    # most rolls; one on 2 almost none.
    state = rolled(table(2), "dice G1 W1 W6")
    assert heuristic(state) == Place(2)
    judge = Judge(state.view(0))
    assert fail_chance(1 << 2) < fail_chance(1 << 7)
    assert judge.place_value(1 << 2) > judge.place_value(1 << 7)


def test_the_heuristic_rolls_on_while_little_is_at_stake_and_stops_when_failing_costs_much() -> (
    None
):
    assert heuristic(placed(table(2), 8)) == ROLL_AGAIN
    long_track = placed(table(2, areas={Space.TWO_FOUR: (1, 0)}), 3, 5, 6, 7, 8, 9)
    assert heuristic(long_track) == STOP
    view = long_track.view(0)
    reason = HeuristicAgent(long_track.game, 0).explain(view, long_track.legal_actions())
    assert f"fails {float(fail_chance(long_track.track)):.0%}" in reason


def test_the_stop_rule_weighs_the_exact_failure_chance() -> None:
    state = placed(table(2), 5, 6, 7, 8)
    judge = Judge(state.view(0))
    fails, success = judge.roll_value(state.track)
    assert fails == float(fail_chance(state.track))
    stop = judge.stop_value(state.track)
    assert heuristic(state) == (ROLL_AGAIN if (1 - fails) * success > stop else STOP)


@pytest.mark.parametrize("players", [2, 3])
def test_the_worth_of_rolling_once_more_averages_every_roll_that_fits(players: int) -> None:
    rng = random.Random(players)
    choices = [
        s
        for s in random_positions(players, seed=90 + players)[::7]
        if s.stage in (Stage.PLACE, Stage.AGAIN)
    ]
    assert len(choices) >= 5
    for state in choices:
        judge = Judge(state.view(state.player))
        for track in (state.track, state.track | 1 << rng.randrange(2, 13)):
            worths = [
                max(judge.stop_value(track | 1 << n) for n in set(d.sums) if not track >> n & 1)
                for d in DICE
                if not all(track >> n & 1 for n in d.sums)
            ]
            fails, worth = judge.roll_value(track)
            assert fails == pytest.approx(1 - len(worths) / len(DICE))
            assert worth == pytest.approx(sum(worths) / len(worths) if worths else 0.0)


def put_after_collecting(
    holdings: tuple[Store, ...], card: Card, unseen: list[int] | None = None
) -> NuesseState:
    """Seat 0 collects ``card`` lying under 5-6 and must store it."""
    position = table(
        2,
        areas={Space.FIVE_SIX: (1, 0)},
        face_up=(A, card, B, H),
        holdings={0: holdings},
        unseen=unseen,
    )
    return drive(placed(position, 5), "stop")


def test_a_nut_joins_the_store_already_collecting_its_kind() -> None:
    state = put_after_collecting(stores(s3=store(Nut.WALNUT, 1), s8=store(Nut.ACORN, 2)), W)
    assert heuristic(state) == Put(Nut.WALNUT, 2)


def test_a_plentiful_kind_opens_a_big_store_and_a_scarce_kind_a_small_one() -> None:
    plentiful = heuristic(put_after_collecting(stores(), W))
    assert isinstance(plentiful, Put) and STORE_SIZES[plentiful.store] >= 4
    unseen = [0] * len(CARDS)
    unseen[CARDS.index(W)], unseen[CARDS.index(H)] = 10, 1  # one hazelnut is still to come
    scarce = heuristic(put_after_collecting(stores(), H, unseen))
    assert isinstance(scarce, Put) and STORE_SIZES[scarce.store] == 2


def test_a_joker_is_kept_unless_it_fills_a_store() -> None:
    assert heuristic(put_after_collecting(stores(s3=store(Nut.WALNUT, 1)), WH)) == KEEP
    filling = put_after_collecting(stores(s3=store(Nut.WALNUT, 1), s4=store(Nut.HAZELNUT, 2)), WH)
    assert heuristic(filling) == Put(Nut.HAZELNUT, 3)


def test_a_kept_joker_is_laid_as_soon_as_it_fills_a_store() -> None:
    holdings = {0: stores(s8=store(Nut.WALNUT, 5))}
    waiting = placed(table(2, holdings=holdings, jokers={0: (WA,)}), 8)
    assert heuristic(waiting) == Lay(WA, Nut.WALNUT, 7)
    holdings = {0: stores(s8=store(Nut.WALNUT, 4))}
    not_yet = placed(table(2, holdings=holdings, jokers={0: (WA,)}), 8)
    assert not isinstance(heuristic(not_yet), Lay)


@pytest.mark.parametrize(
    ("kind", "slot"), [(Nut.WALNUT, Slot.EIGHT_NINE), (Nut.HAZELNUT, Slot.TEN_TWELVE)]
)
def test_the_nut_taken_is_the_one_that_fills_the_big_store(kind: Nut, slot: Slot) -> None:
    # Seat 0 collects on 8-9 and pushes seat 1 up to three in the right 3-area space, which
    # offers the walnut now laid under 8-9 and the hazelnut under 10-12.
    start = table(
        2,
        areas={Space.EIGHT_NINE: (1, 1), Space.RIGHT_3: (0, 2)},
        holdings={1: stores(s8=store(kind, 5))},
    )
    state = drive(placed(start, 8), "stop", "put beechnut S1", "draw walnut")
    assert state.legal_actions() == (Take(Slot.EIGHT_NINE), Take(Slot.TEN_TWELVE))
    assert heuristic(state) == Take(slot)


def test_a_raccoon_steals_where_the_loss_hurts_most() -> None:
    holdings = {1: stores(s1=store(Nut.ACORN, 1), s8=store(Nut.WALNUT, 5))}
    position = table(2, areas={Space.RACCOON_2: (1, 0)}, holdings=holdings)
    state = drive(placed(position, 7), "stop", "pass")
    assert state.stage is Stage.STEAL
    assert set(state.legal_actions()) == {PASS, Steal(1, 0), Steal(1, 7)}
    assert heuristic(state) == Steal(1, 7)


def test_with_three_players_the_raccoon_prefers_robbing_the_leader() -> None:
    holdings = {
        1: stores(s3=store(Nut.ACORN, 2)),
        2: stores(s3=store(Nut.WALNUT, 2), s8=full(Nut.HAZELNUT)),
    }
    position = table(3, areas={Space.RACCOON_2: (1, 0, 0)}, holdings=holdings)
    state = drive(placed(position, 7), "stop", "pass")
    assert heuristic(state) == Steal(2, 2)


def test_setup_squirrels_go_where_rolls_land_most_often() -> None:
    state = drive(
        AufDieNuesse(2).initial_state(),
        *["draw walnut"] * 4,
        "draw walnut",
        "put walnut S8",
        "draw acorn",
        "put acorn S8",
    )
    assert state.stage is Stage.SETUP
    assert heuristic(state) in {Setup(Space.FIVE_SIX), Setup(Space.EIGHT_NINE)}


def test_the_heuristic_beats_random_in_a_small_seeded_arena() -> None:
    game = AufDieNuesse(2)
    agents = ["heuristic", "random"]
    row = summarise(run(schedule(game, agents, 20, seed=5)), agents).row("heuristic")
    assert row.win_rate >= 0.9
    assert row.win_rate_ci95[0] > 0.5
    assert row.mean_margin > 30


# --- Search aids: the playout policy and the cut-off evaluation --------------------------------


def turn_starts(players: int, seed: int) -> list[NuesseState]:
    """The turn starts of one seeded random game, before the end is near."""
    return [
        s
        for s in random_positions(players, seed)
        if s.stage is Stage.ROLL and not s.track and s.board.market.pile > search.PLAY_OUT_PILE
    ]


def test_the_game_offers_its_search_aids_to_ismcts() -> None:
    game = AufDieNuesse(2)
    assert kit_of(game).search.evaluate is search.evaluate
    assert kit_of(game).search.playout is search.playout


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_playout_policy_picks_a_legal_move_at_every_decision(players: int) -> None:
    rng = random.Random(players)
    for state in random_positions(players, seed=40 + players):
        if not state.is_terminal() and not state.is_chance():
            assert search.playout(state, rng) in state.legal_actions()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_evaluation_gives_every_seat_a_chance_and_the_chances_add_up(players: int) -> None:
    starts = turn_starts(players, seed=50 + players)
    assert starts
    for state in starts:
        chances = search.evaluate(state, search.MIN_DEPTH)
        assert chances is not None and len(chances) == players
        assert all(0.0 < c < 1.0 for c in chances)
        assert math.isclose(sum(chances), 1.0)


def test_the_evaluation_stops_a_playout_at_a_turn_start_or_where_the_policy_stops() -> None:
    start = table(2)
    assert search.evaluate(start, search.MIN_DEPTH) == search.win_chances(start)
    rng = random.Random(0)
    risky = placed(table(2, areas={Space.FIVE_SIX: (1, 1)}), 5, 6, 7, 8, 9)
    assert search.playout(risky, rng) == STOP
    after = search.stopped(risky)
    assert after.stage is Stage.ROLL and after.player == 1 and not after.track
    assert after.board.areas[Space.FIVE_SIX] == (1, 0)  # seat 0 collected, seat 1 pushed up
    assert search.evaluate(risky, search.AGAIN_DEPTH) == search.win_chances(after)
    safe = placed(table(2), 7)
    assert search.playout(safe, rng) == ROLL_AGAIN
    assert search.evaluate(safe, search.AGAIN_DEPTH) is None  # the playout rolls on
    assert search.evaluate(replace(risky, stage=Stage.ROLL), 9) is None  # mid-turn roll
    near_end = table(2, pile=search.PLAY_OUT_PILE)
    assert search.evaluate(near_end, search.MIN_DEPTH) is None  # the end is played out


def late(holdings: dict[int, tuple[Store, ...]], player: int = 0) -> NuesseState:
    """``player``'s 2-player turn start with few cards left to come."""
    unseen = [1] * len(CARDS)
    pile = search.PLAY_OUT_PILE + 1
    return table(2, player=player, holdings=holdings, unseen=unseen, pile=pile)


def test_a_big_lead_late_in_the_game_is_all_but_a_win() -> None:
    ahead = stores(s7=full(Nut.WALNUT), s8=full(Nut.HAZELNUT), s3=store(Nut.ACORN, 2))
    behind = stores(s1=store(Nut.BEECHNUT, 1))
    chances = search.evaluate(late({0: ahead, 1: behind}), search.MIN_DEPTH)
    assert chances is not None and chances[0] > 0.95
    mirrored = search.evaluate(late({0: behind, 1: ahead}, player=1), search.MIN_DEPTH)
    assert mirrored is not None and mirrored[1] == pytest.approx(chances[0])


def test_an_even_position_is_close_to_a_coin_toss_and_more_nuts_are_better() -> None:
    even = search.win_chances(table(2))
    assert 0.4 < even[0] < 0.65  # the player whose turn starts has the tempo
    richer = search.win_chances(table(2, holdings={0: stores(s8=store(Nut.WALNUT, 4))}))
    assert richer[0] > even[0]
    on_board = search.win_chances(table(2, areas={Space.LEFT_3: (2, 0)}))
    assert on_board[0] > even[0]


def test_the_playout_files_a_nut_with_its_kind_and_keeps_a_joker_that_fills_nothing() -> None:
    rng = random.Random(0)
    state = put_after_collecting(stores(s3=store(Nut.WALNUT, 1), s8=store(Nut.ACORN, 2)), W)
    assert search.playout(state, rng) == Put(Nut.WALNUT, 2)
    assert search.playout(put_after_collecting(stores(s3=store(Nut.WALNUT, 1)), WH), rng) == KEEP
    filling = put_after_collecting(stores(s3=store(Nut.WALNUT, 1), s4=store(Nut.HAZELNUT, 2)), WH)
    assert search.playout(filling, rng) == Put(Nut.HAZELNUT, 3)


def test_the_playout_rolls_on_with_little_at_stake_and_stops_when_failing_costs_much() -> None:
    rng = random.Random(0)
    assert search.playout(placed(table(2), 7), rng) == ROLL_AGAIN
    risky = placed(table(2), 5, 6, 7, 8, 9)
    assert fail_chance(risky.track) > Fraction(2, 5)
    assert search.playout(risky, rng) == STOP


def test_the_playout_lays_a_kept_joker_that_fills_a_store() -> None:
    holdings = {0: stores(s8=store(Nut.WALNUT, 5))}
    waiting = placed(table(2, holdings=holdings, jokers={0: (WA,)}), 8)
    assert search.playout(waiting, random.Random(0)) == Lay(WA, Nut.WALNUT, 7)


def test_the_playout_steals_where_the_loss_hurts_most() -> None:
    holdings = {1: stores(s1=store(Nut.ACORN, 1), s8=store(Nut.WALNUT, 5))}
    position = table(2, areas={Space.RACCOON_2: (1, 0)}, holdings=holdings)
    state = drive(placed(position, 7), "stop", "pass")
    assert search.playout(state, random.Random(0)) == Steal(1, 7)


def test_ismcts_with_the_search_aids_plays_a_whole_game_quickly() -> None:
    game = AufDieNuesse(2)
    agents = [make_agent("ismcts:8", game, 1), make_agent("heuristic", game, 2)]
    state = play_game(game, agents, seed=3).state
    assert state.is_terminal() and sum(state.returns()) == pytest.approx(1.0)


def test_the_book_files_and_takes_nuts_as_the_heuristic_but_leaves_the_dice_to_search() -> None:
    rng = random.Random(0)
    filing = put_after_collecting(stores(s3=store(Nut.WALNUT, 1), s8=store(Nut.ACORN, 2)), W)
    assert book(filing.view(0), filing.legal_actions(), rng) == Put(Nut.WALNUT, 2)
    rolling = placed(table(2), 7)
    assert book(rolling.view(0), rolling.legal_actions(), rng) is None
    assert game_book(AufDieNuesse(2)) is book


def test_the_search_explains_a_book_move_with_the_heuristics_reason() -> None:
    filing = put_after_collecting(stores(s3=store(Nut.WALNUT, 1), s8=store(Nut.ACORN, 2)), W)
    view, legal = filing.view(0), filing.legal_actions()
    reason = HeuristicAgent(AufDieNuesse(2), 0).judge(view, legal).why
    assert "expected points" in reason
    hint = make_agent("ismcts:50", AufDieNuesse(2), 1).explain(view, legal)
    unsearched = "a set move from the game's book, played without searching"
    assert hint == f"ismcts: put walnut S3 — {reason} ({unsearched})"
    rolling = placed(table(2), 7)
    assert book_reason(rolling.view(0), rolling.legal_actions()) is None


def test_the_evaluation_counts_full_stores_hopes_for_partly_filled_ones_and_david() -> None:
    state = table(2, holdings={0: stores(s8=full(Nut.WALNUT), s7=store(Nut.ACORN, 3))})
    outlook = search.Outlook(state.board)
    values = dict(zip(search.FEATURES, search.features(state.board, 0, outlook), strict=True))
    assert values["points"] == 30 + 3 and 0.0 < values["bonus"] < 20 - 3
    assert search.features(state.board, 1, outlook) == [0.0] * len(search.FEATURES)
    assert len(search.WEIGHTS) == len(search.FEATURES)
    protected = table(2, david=1)
    assert search.win_chances(protected)[1] > search.win_chances(table(2))[1]


def test_nuesse_search_caps_its_tree_at_the_choices_at_hand() -> None:
    agent = make_agent("ismcts:50", AufDieNuesse(2), 1)
    assert isinstance(agent, IsmctsAgent) and agent.tree_depth == SEARCH.tree_depth == 1


def test_the_evaluation_prefers_a_collected_nut_to_the_squirrel_waiting_for_a_partner() -> None:
    waiting = search.win_chances(table(2, player=1, areas={Space.FIVE_SIX: (1, 0)}))
    collected = search.win_chances(
        table(2, player=1, holdings={0: stores(s8=store(Nut.WALNUT, 1))})
    )
    assert collected[0] > waiting[0] > search.win_chances(table(2, player=1))[0]


def test_ismcts_takes_the_smaller_exploration_constant_the_game_sets() -> None:
    agent = make_agent("ismcts:50", AufDieNuesse(2), 1)
    assert isinstance(agent, IsmctsAgent)
    assert SEARCH.exploration is not None
    assert agent.exploration == SEARCH.exploration < EXPLORATION
    assert agent.iterations == 50
    assert IsmctsAgent(AufDieNuesse(2), 1, exploration=0.5).exploration == 0.5
    other = make_agent("ismcts", spieltisch.load("awimbawe"), 1)
    assert isinstance(other, IsmctsAgent) and other.exploration == EXPLORATION


@pytest.mark.parametrize("players", [2, 3])
def test_a_roll_or_stop_choice_ends_a_playout_exactly_where_the_policy_stops(players: int) -> None:
    rng = random.Random(players)
    choices = [
        s
        for s in random_positions(players, seed=60 + players)
        if s.stage is Stage.AGAIN and s.board.market.pile > search.PLAY_OUT_PILE
    ]
    assert choices
    for state in choices:
        stops = search.playout(state, rng) == STOP
        value = search.evaluate(state, search.AGAIN_DEPTH)
        ends = stops and search.stopped(state).board.market.ending is not Ending.NOT_YET
        assert (value is not None) == (stops and not ends)


@pytest.mark.parametrize(("store_table", "worth"), [("standard", 20), ("five_25", 25)])
def test_the_bots_value_stores_by_the_games_store_table(store_table: str, worth: int) -> None:
    five_nut = 6  # S7, the store the two tables price differently
    state = table(2, holdings={0: stores(s7=full(Nut.WALNUT))}, store_table=store_table)
    assert state.scores()[0] == worth
    outlook = search.Outlook(state.board)
    assert search.features(state.board, 0, outlook)[0] == worth
    assert outlook.worth(0, five_nut, Nut.WALNUT, STORE_SIZES[five_nut]) == worth
    judge = Judge(state.view(0))
    assert judge.store_value(0, five_nut, Nut.WALNUT, STORE_SIZES[five_nut]) == worth
