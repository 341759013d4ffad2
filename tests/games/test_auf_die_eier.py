"""Auf die Eier: the rulebook's worked turn, every ruling, scoring and the end of the game."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import spieltisch
from spieltisch.core.chance import compositions
from spieltisch.core.errors import IllegalActionError, InvalidActionError
from spieltisch.games.auf_die_eier import (
    STOP,
    AufDieEier,
    EierState,
    Reroll,
    Roll,
    Stage,
    score_turn,
)
from spieltisch.games.auf_die_eier.model import LADDER, MAX_TURN_POINTS, TurnScore
from spieltisch.games.auf_die_eier.notation import parse_dice


def new(players: int = 2, **options: bool) -> EierState:
    game = spieltisch.load("auf-die-eier", players, **options)
    assert isinstance(game, AufDieEier)
    return game.initial_state()


def drive(state: EierState, *moves: str) -> EierState:
    for text in moves:
        state = state.apply(state.parse(text))
    return state


def quick_turn(state: EierState, roll: str) -> EierState:
    """One turn: throw ``roll`` and stop (rotten eggs, if any, are re-thrown as chickens-free W)."""
    state = drive(state, f"roll {roll}")
    if state.stage is Stage.DECIDE:
        state = drive(state, "stop")
    if state.stage is Stage.ROTTEN:
        state = drive(state, "roll " + "W" * state.to_throw)
    return state


def score(dice: str, spoilers: int = 0, need: int | None = 1) -> TurnScore:
    return score_turn(0, parse_dice(dice), spoilers, need)


# --- The rulebook's worked turn -------------------------------------------------------------


def test_stefans_turn_scores_21_and_moves_his_ladder_to_4() -> None:
    state = new(2)
    # Stefan (seat 0) first crosses off 1 and 2 on his ladder; Gabriela (seat 1) scores nothing.
    state = quick_turn(state, "H" + "CCCCCCCC")
    state = quick_turn(state, "CCCCCCCCC")
    state = quick_turn(state, "HH" + "CCCCCCC")
    state = quick_turn(state, "CCCCCCCCC")
    assert state.scores() == (15, 0)
    assert state.chicken_need(0) == 3 and state.current_player() is None

    state = drive(state, "roll RRCPPFFFH")
    assert state.dice == parse_dice("RRCPPFFFH") and state.rolls == 1
    state = drive(state, "keep CPFH")  # the rotten eggs stay aside on their own
    assert state.to_throw == 3
    state = drive(state, "roll PPH", "reroll PP", "roll RH")
    assert state.stage is Stage.ROTTEN and state.to_throw == 3
    assert state.view(0).rotten_thrower == 1  # Gabriela throws them
    state = drive(state, "roll WRF")

    last = state.last
    assert last is not None and last.player == 0
    assert (last.breakfast, last.spoiled_breakfast) == (6, False)
    assert (last.fried, last.spoiled_fried) == (1, 1)
    assert last.chickens == 15 and last.points == 21
    assert state.scores() == (36, 0)
    assert state.chicken_need(0) == 4
    assert state.current_player() is None and state.player == 1


def test_a_fourth_chicken_in_stefans_rotten_throw_would_score_no_chickens() -> None:
    assert score("WPCFFHHHH", spoilers=1, need=3).chickens == 0
    assert score("WPCFFHHH", spoilers=1, need=3).points == 21


def played_to(
    scores: tuple[int, ...], player: int = 0, crossed: tuple[int, ...] | None = None
) -> EierState:
    """A fresh turn of ``player`` with the given scores and ladders (all public, so built)."""
    start = new(len(scores))
    sheet = replace(start.sheet, scores=scores, crossed=crossed or start.sheet.crossed)
    return replace(start, sheet=sheet, player=player)


# --- Rolls and re-rolls -----------------------------------------------------------------------


def test_a_turn_starts_with_all_nine_dice_thrown() -> None:
    state = new()
    assert state.is_chance() and state.to_throw == 9
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 2002
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[Roll.of("WWWWWWWWW")] == Fraction(1, 6**9)


def test_rotten_eggs_are_set_aside_at_once_and_cannot_be_rerolled() -> None:
    state = drive(new(), "roll RRWWWWWWW")
    assert state.stage is Stage.DECIDE
    assert all(a.dice[2] == 0 for a in state.legal_actions() if isinstance(a, Reroll))
    with pytest.raises(IllegalActionError, match="Rotten Eggs stay set aside"):
        state.apply(Reroll.of("R"))


def test_a_reroll_needs_at_least_one_die_and_only_dice_on_the_table() -> None:
    state = drive(new(), "roll WWWWWWWWH")
    with pytest.raises(IllegalActionError, match="at least one die"):
        state.apply(Reroll.of("-"))
    with pytest.raises(IllegalActionError, match="only dice lying on the table"):
        state.apply(Reroll.of("HH"))
    with pytest.raises(IllegalActionError, match="only dice lying on the table"):
        state.parse("keep PP")
    with pytest.raises(IllegalActionError, match="keeping every die is 'stop'"):
        state.parse("keep WWWWWWWWH")


def test_illegal_moves_leave_the_state_unchanged() -> None:
    state = drive(new(), "roll WWWWWWWWH")
    before = state.to_json()
    for bad in ("reroll R", "reroll HH", "roll W"):
        with pytest.raises(IllegalActionError):
            state.apply_text(bad)
    assert state.to_json() == before


def test_the_third_throw_may_pick_up_dice_set_aside_after_the_first() -> None:
    state = drive(new(), "roll WWWCCCPPF", "reroll F", "roll H")
    # Before the third throw every non-rotten die may be thrown, the kept whole eggs included.
    assert Reroll.of("WWWCCCPPHH") not in state.legal_actions()  # only nine dice exist
    assert Reroll.of("WWWCCCPPH") in state.legal_actions()
    assert Reroll.of("WWW") in state.legal_actions()
    state = drive(state, "reroll WWW", "roll CCC")
    assert state.player == 1 and state.last is not None
    assert state.last.dice == parse_dice("CCCCCCPPH") and state.last.points == 5


def test_after_the_third_throw_there_is_no_decision() -> None:
    state = drive(new(), "roll WWWWWWWWH", "reroll H", "roll C", "reroll C", "roll F")
    assert state.player == 1 and state.stage is Stage.ROLL
    with pytest.raises(IllegalActionError, match="thrown first"):
        state.apply(STOP)


def test_nine_rotten_eggs_go_straight_to_the_rotten_throw() -> None:
    state = drive(new(), "roll RRRRRRRRR")
    assert state.stage is Stage.ROTTEN and state.to_throw == 9


def test_rotten_eggs_of_the_rerolls_add_up_and_all_are_thrown_again() -> None:
    state = drive(new(), "roll RWWWWWWWH", "reroll WW", "roll RR", "stop")
    assert state.stage is Stage.ROTTEN and state.to_throw == 3
    assert len(state.chance_outcomes()) == 56
    with pytest.raises(IllegalActionError, match="exactly the dice"):
        state.apply_text("roll WW")


def test_a_move_of_the_wrong_kind_is_refused_by_rule() -> None:
    state = new()
    with pytest.raises(IllegalActionError, match="thrown first"):
        state.apply(STOP)
    state = drive(state, "roll WWWWWWWWH")
    with pytest.raises(IllegalActionError, match="the player decides"):
        state.apply_text("roll WWWWWWWWH")


# --- Scoring ------------------------------------------------------------------------------


def test_fried_eggs_pairs_score_five_each() -> None:
    assert score("CCFFF").points == 10
    assert score("CCCF").points == 5


def test_breakfast_is_three_per_die_with_one_pot_and_at_least_one_whole_egg() -> None:
    assert score("WWP").points == 9
    assert score("WWPP").points == 9  # one Breakfast per turn: the second pot is spare
    assert score("PPP").points == 0  # a pot without a whole egg scores nothing
    assert score("WWW").points == 0


def test_spoilers_ruin_pairs_before_the_breakfast_and_never_chickens() -> None:
    result = score("WPCF", spoilers=1)
    assert (result.spoiled_fried, result.spoiled_breakfast, result.points) == (1, False, 6)
    result = score("WPCF", spoilers=2)
    assert (result.spoiled_fried, result.spoiled_breakfast, result.points) == (1, True, 0)
    assert score("WPCFH", spoilers=5, need=1).points == 5
    assert score("CFCF", spoilers=1).points == 5


def test_chickens_score_only_the_exact_number_the_ladder_asks_for() -> None:
    assert score("HH", need=2).chickens == 10
    assert score("HHH", need=2).chickens == 0
    assert score("H", need=2).chickens == 0
    assert score("H", need=None).chickens == 0


@given(
    dice=st.tuples(*[st.integers(0, 9)] * 6).filter(lambda d: sum(d) <= 9 and d[2] == 0),
    spoilers=st.integers(0, 9),
    need=st.sampled_from([None, *LADDER]),
)
def test_the_engine_spoils_the_cheapest_combinations(
    dice: tuple[int, ...], spoilers: int, need: int | None
) -> None:
    result = score_turn(0, dice, spoilers, need)
    combos = [5] * result.fried + ([result.breakfast] if result.breakfast else [])
    best = max(
        sum(v for i, v in enumerate(combos) if i not in spoiled)
        for spoiled in itertools.combinations(range(len(combos)), min(spoilers, len(combos)))
    )
    assert result.points == best + result.chickens


def test_no_turn_scores_more_than_the_declared_maximum() -> None:
    best = max(
        score_turn(0, (d[0], d[1], 0, d[2], d[3], d[4]), 0, need).points
        for total in range(10)
        for d in compositions(total, 5)
        for need in set(LADDER)
    )
    assert best == MAX_TURN_POINTS == 37


# --- Chicken ladders (ruling 7) -----------------------------------------------------------


def test_each_player_has_a_ladder_of_their_own() -> None:
    state = quick_turn(new(2), "HCCCCCCCC")
    assert (state.chicken_need(0), state.chicken_need(1)) == (2, 1)
    state = quick_turn(state, "HCCCCCCCC")
    assert state.scores() == (5, 5)


def test_the_shared_ladder_option_gives_the_table_one_ladder() -> None:
    state = quick_turn(new(2, shared_chicken_ladder=True), "HCCCCCCCC")
    assert (state.chicken_need(0), state.chicken_need(1)) == (2, 2)
    state = quick_turn(state, "HCCCCCCCC")
    assert state.scores() == (5, 0)


def test_the_ladder_runs_down_and_a_used_up_ladder_scores_no_more_chickens() -> None:
    state = new(2)
    for need in LADDER[:5]:  # 1, 2, 3, 4, 5 chickens: 75 points
        state = quick_turn(state, "H" * need + "C" * (9 - need))
        state = quick_turn(state, "CCCCCCCCC")
    assert state.scores()[0] == 75 and state.chicken_need(0) == 4
    state = played_to((0, 0), crossed=(8, 0))
    state = quick_turn(state, "HCCCCCCCC")
    assert state.scores() == (5, 0) and state.chicken_need(0) is None
    state = quick_turn(quick_turn(state, "CCCCCCCCC"), "HCCCCCCCC")
    assert state.scores() == (5, 0)


# --- The end (ruling 8) -------------------------------------------------------------------


def test_reaching_100_finishes_the_round_before_the_game_ends() -> None:
    state = played_to((95, 90, 90), player=0)
    state = quick_turn(state, "WWPCCCCCC")  # seat 0 scores 9 and reaches 104
    assert state.final_round and not state.is_terminal() and state.player == 1
    state = quick_turn(state, "CCCCCCCCC")
    state = quick_turn(state, "CCCCCCCCC")
    assert state.is_terminal() and state.winners() == {0}
    assert state.returns() == (1.0, 0.0, 0.0)


def test_a_later_seat_can_overtake_in_the_final_round() -> None:
    state = played_to((90, 95, 99), player=1)
    state = quick_turn(state, "WWPCCCCCC")  # seat 1: 104
    state = quick_turn(state, "WWWPCCCCC")  # seat 2: 111
    assert state.is_terminal() and state.winners() == {2}


def test_tied_leaders_take_one_more_turn_each() -> None:
    state = played_to((95, 95, 50), player=0)
    state = quick_turn(state, "WWPCCCCCC")  # 104
    state = quick_turn(state, "WWPCCCCCC")  # 104
    state = quick_turn(state, "CCCCCCCCC")  # seat 2 ends the round
    assert not state.is_terminal() and state.tie_players == (0, 1) and state.player == 0
    state = quick_turn(state, "CCCCCCCCC")
    state = quick_turn(state, "WPCCCCCCC")
    assert state.is_terminal() and state.winners() == {1}


def test_a_tie_that_remains_after_the_tie_turns_is_a_shared_win() -> None:
    state = played_to((95, 95), player=0)
    for _ in range(4):
        state = quick_turn(state, "WWPCCCCCC")
    assert state.is_terminal() and state.winners() == {0, 1}
    assert state.returns() == (0.5, 0.5)
    assert state.scores() == (113, 113)


def test_two_players_the_opponent_throws_the_rotten_eggs() -> None:
    state = drive(new(2), "roll RCCCCCCCC", "stop")
    assert state.view(0).rotten_thrower == 1
    assert drive(new(3), "roll RCCCCCCCC", "stop").view(0).rotten_thrower == 2


# --- Notation and ids ---------------------------------------------------------------------


@given(st.tuples(*[st.integers(0, 4)] * 6))
def test_roll_text_round_trips(dice: tuple[int, ...]) -> None:
    roll = Roll(dice)
    assert new().parse(str(roll)) == roll
    assert eval(repr(roll), {"Roll": Roll}) == roll


def test_parsing_takes_lower_case_counts_and_keep() -> None:
    state = drive(new(), "roll WWCCPPFFH")
    assert state.parse("reroll 2w c") == Reroll.of("WWC")
    assert state.parse("r ff") == Reroll.of("FF")
    assert state.parse("keep WWCCPP") == Reroll.of("FFH")
    assert state.parse("STOP") == STOP
    for bad in ("hold WW", "reroll XY", "stop now", ""):
        with pytest.raises(InvalidActionError):
            state.parse(bad)


def test_action_ids_cover_every_reroll_once() -> None:
    game = spieltisch.load("auf-die-eier")
    actions = [game.action_from_id(i) for i in range(game.num_distinct_actions)]
    assert actions[0] == STOP
    assert len(set(actions)) == game.num_distinct_actions == 2002
    assert [game.action_id(a) for a in actions] == list(range(2002))
    with pytest.raises(InvalidActionError, match="action id"):
        game.action_from_id(2002)
