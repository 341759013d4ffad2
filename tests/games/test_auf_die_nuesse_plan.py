"""Auf die Nüsse!: the turn plan (dynamic programming over start tracks) and the expert that
plays it, checked against brute force over the dice, the heuristic's one-roll rule, and the
rules engine."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from spieltisch.agents import agent_names, make_agent, strongest_agent
from spieltisch.core.game import Move
from spieltisch.games.auf_die_nuesse import AufDieNuesse, NuesseState, Space, Stage
from spieltisch.games.auf_die_nuesse.bots import ExpertAgent, HeuristicAgent, Judge
from spieltisch.games.auf_die_nuesse.bots.plan import (
    ROLLS,
    START_TRACK_SPACES,
    TurnPlan,
    plan_for,
    sum_pairs,
)
from spieltisch.games.auf_die_nuesse.bots.search import PLAY_OUT_PILE, playout
from spieltisch.games.auf_die_nuesse.model import Ending, fail_chance, move_up
from spieltisch.games.auf_die_nuesse.notation import DICE, ROLL_AGAIN, STOP, Place
from tests.games.test_auf_die_nuesse import drive, placed, table, track


def brute_force(stop: Callable[[int], float], room: int, track: int) -> float:
    """The best expected worth from a roll-or-stop choice, straight from the 216 rolls (each
    start track worked out once)."""

    @functools.cache
    def best(track: int) -> float:
        if track.bit_count() >= room:
            return stop(track)
        total = 0.0
        for dice in DICE:
            free = [n for n in dice.sums if not track >> n & 1]
            if free:
                total += max(best(track | 1 << n) for n in free)
        return max(stop(track), total / len(DICE))

    return best(track)


def random_prices(seed: int) -> Callable[[int], float]:
    """A stop value that gives every start track its own arbitrary worth, which may be less
    than nothing (a pair that sends a waiting squirrel home for a nut worth little)."""
    rng = random.Random(seed)
    prices: dict[int, float] = {}

    def stop(track: int) -> float:
        if track not in prices:
            prices[track] = rng.uniform(-1.0, 3.0) * track.bit_count()
        return prices[track]

    return stop


def test_the_rolls_offer_every_pair_of_spaces_as_often_as_the_dice_do() -> None:
    pairs = sum_pairs()
    assert sum(count for _, _, count in pairs) == ROLLS == 216
    assert all(2 <= low <= high <= 12 for low, high, _ in pairs)
    # Green 1, whites 1 and 1: only space 2; the pair (2, 2) comes from that roll alone.
    assert (2, 2, 1) in pairs


@pytest.mark.parametrize(("seed", "room", "spaces"), [(1, 3, ()), (2, 3, (7,)), (3, 4, (2, 12))])
def test_the_plan_is_the_best_play_found_by_brute_force(
    seed: int, room: int, spaces: tuple[int, ...]
) -> None:
    stop = random_prices(seed)
    track = sum(1 << n for n in spaces)
    plan = TurnPlan(stop, room)
    assert plan.value(track) == pytest.approx(brute_force(stop, room, track))


def test_with_room_for_one_more_squirrel_the_plan_is_the_one_roll_rule() -> None:
    state = placed(table(2, areas={Space.FIVE_SIX: (1, 0)}), 4, 9)
    judge = Judge(state.view(0))
    plan = TurnPlan(judge.stop_value, state.track.bit_count() + 1)
    fails, success = judge.roll_value(state.track)
    assert plan.roll_on(state.track) == pytest.approx((1 - fails) * success)


def test_the_plan_rolls_on_where_only_the_second_roll_pays() -> None:
    # Stopping pays only with three squirrels on the track: one more roll alone never pays.
    def stop(track: int) -> float:
        return 10.0 if track.bit_count() >= 3 else 0.0

    track = 1 << 7
    one_roll = TurnPlan(stop, 2)
    assert not one_roll.rolls_on(track)
    plan = TurnPlan(stop, 3)
    assert plan.rolls_on(track)
    assert 0.0 < plan.roll_on(track) < 10.0 * float(1 - fail_chance(track))


def test_with_no_squirrel_left_the_plan_stops() -> None:
    stop = random_prices(4)
    track = 1 << 3 | 1 << 11
    plan = TurnPlan(stop, 2)
    assert plan.roll_on(track) == 0.0
    assert plan.value(track) == stop(track)
    assert not plan.rolls_on(track)


def test_a_turn_that_must_stop_keeps_a_stop_worth_less_than_nothing() -> None:
    # The last squirrel goes where its pair collects a poor nut: the turn ends with it, even
    # though a failed roll (worth nothing) would have been better, had a roll been possible.
    def stop(track: int) -> float:
        return -2.0 if track >> 3 & 1 else 1.0

    plan = TurnPlan(stop, 1)
    assert plan.value(1 << 3) == -2.0
    assert not plan.rolls_on(1 << 3)
    assert plan.best_space(0, [3, 5]) == (1.0, 5)
    assert plan.best_space(0, [3]) == (-2.0, 3)
    # With a squirrel to spare the player may roll on: a roll that fails (worth nothing)
    # beats the poor stop, one that fits leaves it as poor, so rolling on is worth more.
    roomy = TurnPlan(stop, 2)
    assert roomy.rolls_on(1 << 3)
    assert roomy.value(1 << 3) == pytest.approx(-2.0 * (1 - float(fail_chance(1 << 3))))


def test_room_beyond_the_start_track_counts_as_eleven() -> None:
    assert TurnPlan(random_prices(5), 15).room == START_TRACK_SPACES == 11
    worths = Judge(table(2).view(0)).space_worths
    kept = plan_for(worths, START_TRACK_SPACES)
    assert all(plan_for(worths, room) is kept for room in (12, 15))  # one plan, kept once
    assert plan_for(worths, 10) is not kept and plan_for(worths, 10).room == 10


def rolled(state: NuesseState, dice: str) -> NuesseState:
    return drive(replace(state, stage=Stage.ROLL), dice)


def choice(agent: type[HeuristicAgent], state: NuesseState) -> Move:
    return agent(state.game, 0).act(state.view(state.player), state.legal_actions())


def test_the_levels_offered_put_the_measured_strongest_first() -> None:
    # As the ladder measured them at every table size: the rollout agent, the search (ahead of
    # the expert head to head at three and four players too), the expert, the heuristic.
    for players in (2, 3, 4):
        table = AufDieNuesse(players)
        assert agent_names(table) == ("rollout", "ismcts", "expert", "heuristic", "random")
        assert strongest_agent(table) == "rollout"
    assert isinstance(make_agent("expert", AufDieNuesse(3), 1), ExpertAgent)


def test_the_expert_keeps_a_common_sum_free_for_the_rolls_to_come() -> None:
    # Green 2 with whites 2 and 6: space 4 or 8. Nothing collects yet, so the heuristic takes
    # the common 8 (worth more after one more roll); the expert takes 4, which leaves 8 free
    # for the many later rolls that show it.
    state = rolled(table(2), "dice G2 W2 W6")
    assert state.legal_actions() == (Place(4), Place(8))
    assert choice(HeuristicAgent, state) == Place(8)
    assert choice(ExpertAgent, state) == Place(4)
    assert playout(state, random.Random(0)) == Place(4)
    plan = Judge(state.view(0)).plan
    assert plan.place_value(0, 4) > plan.place_value(0, 8)


def test_the_expert_rolls_on_and_stops_by_the_plan_and_shows_its_figures() -> None:
    expert = ExpertAgent(AufDieNuesse(2), 0)
    early = placed(table(2), 8)
    assert choice(ExpertAgent, early) == ROLL_AGAIN
    long_track = placed(table(2, areas={Space.TWO_FOUR: (1, 0)}), 3, 5, 6, 7, 8, 9)
    assert choice(ExpertAgent, long_track) == STOP
    reason = expert.explain(long_track.view(0), long_track.legal_actions())
    assert reason.startswith("expert: stop")
    assert f"fails {float(fail_chance(long_track.track)):.0%}" in reason
    judge = Judge(long_track.view(0))
    assert f"stop {judge.stop_value(long_track.track):.1f}" in reason
    assert f"roll on {judge.plan.roll_on(long_track.track):.1f}" in reason


def test_a_stop_is_priced_space_by_space() -> None:
    assert move_up(sum(1 << n for n in (2, 3, 4, 7, 12))) == (3, 0, 1, 0, 1)
    # One squirrel already waits on 2-4: the one from space 3 makes a pair with it, which
    # collects but takes the waiting squirrel's share of a later nut home; the one from 8
    # stands alone on 8-9 and earns such a share.
    state = placed(table(2, areas={Space.TWO_FOUR: (1, 0)}), 3, 8)
    judge = Judge(state.view(0))
    nut, share = judge.collection(Space.TWO_FOUR, 1), judge.weights.residual
    assert judge.stop_value(track(3)) == pytest.approx(nut - share)
    assert judge.stop_value(track(8)) == pytest.approx(share)
    assert judge.stop_value(state.track) == pytest.approx(nut)
    # Two from the start track join the waiting one: a pair collects and one still stands.
    assert judge.stop_value(track(2, 3)) == pytest.approx(nut)


def test_the_decisions_of_one_turn_share_one_plan() -> None:
    # Nothing but the start track changes within a turn, so the plan worked out for the first
    # placement serves the roll-or-stop choice after it.
    state = rolled(table(2), "dice G2 W2 W6")
    first = Judge(state.view(0)).plan
    after = drive(state, "place 4")
    assert after.stage is Stage.AGAIN
    assert Judge(after.view(0)).plan is first
    elsewhere = table(2, areas={Space.TWO_FOUR: (1, 0)})
    assert Judge(rolled(elsewhere, "dice G2 W2 W6").view(0)).plan is not first


def decisions(seed: int, stages: tuple[Stage, ...]) -> list[NuesseState]:
    """The positions of one seeded heuristic game where a decision of these stages is due."""
    rng = random.Random(seed)
    state = AufDieNuesse(2).initial_state()
    found = []
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        if state.stage in stages:
            found.append(state)
        state = state.apply(choice(HeuristicAgent, state))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_the_expert_handles_nuts_exactly_as_the_heuristic(seed: int) -> None:
    positions = decisions(seed, (Stage.PUT, Stage.TAKE, Stage.STEAL, Stage.SETUP))
    assert len(positions) > 20
    for state in positions:
        assert choice(ExpertAgent, state) == choice(HeuristicAgent, state)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_expert_rolls_on_wherever_the_heuristic_does(seed: int) -> None:
    # Rolling on and then playing best is worth at least rolling once more and stopping.
    positions = decisions(seed, (Stage.AGAIN,))
    rolls = [state for state in positions if choice(HeuristicAgent, state) == ROLL_AGAIN]
    assert len(rolls) > 20
    for state in rolls:
        assert choice(ExpertAgent, state) == ROLL_AGAIN


@pytest.mark.parametrize("seed", [5, 6])
def test_the_search_plays_its_dice_as_the_expert_until_the_end_nears(seed: int) -> None:
    # The playouts price their stops as the expert does while they end at the next turn
    # start; near the end they switch to fixed tables, so those positions are left out.
    positions = [
        state
        for state in decisions(seed, (Stage.PLACE, Stage.AGAIN))
        if len(state.legal_actions()) > 1 and far_from_the_end(state)
    ]
    assert len(positions) > 30
    for state in positions:
        assert playout(state, random.Random(0)) == choice(ExpertAgent, state)


def far_from_the_end(state: NuesseState) -> bool:
    market = state.board.market
    return market.ending is Ending.NOT_YET and market.pile > PLAY_OUT_PILE
