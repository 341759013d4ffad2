"""Auf die Eier's search aids: the expert as playout policy, and the estimate of the race that
ends a playout at the next turn start (``bots/search.py``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import spieltisch
from spieltisch.games.auf_die_eier import EierState, Stage
from spieltisch.games.auf_die_eier.bots import SEARCH
from spieltisch.games.auf_die_eier.bots.expert import best_choice, choice_values
from spieltisch.games.auf_die_eier.bots.search import (
    CANDIDATES,
    END_TURNS,
    MEAN_PER_DIE,
    at_turn_start,
    candidates,
    evaluate,
    playout,
    win_chances,
)
from spieltisch.games.auf_die_eier.notation import parse_dice


def start(players: int = 2, **options: bool | int | str) -> EierState:
    state = spieltisch.load("auf-die-eier", players, **options).initial_state()
    assert isinstance(state, EierState)
    return state


def at(state: EierState, scores: tuple[int, ...], player: int = 0) -> EierState:
    """The turn start of ``player`` with the sheet showing ``scores``."""
    return replace(state, sheet=replace(state.sheet, scores=scores), player=player)


def test_the_search_is_told_of_both() -> None:
    assert SEARCH.playout is playout and SEARCH.evaluate is evaluate
    assert SEARCH.candidates is candidates
    assert SEARCH.tree_depth == 1 and SEARCH.exploration is None


def test_the_playout_plays_the_experts_choice() -> None:
    rng = random.Random(3)
    checked = 0
    for players in (2, 3):
        state = start(players, dice=7)
        while not state.is_terminal():
            if state.is_chance():
                state = state.apply(state.sample_chance(rng))
                continue
            need = state.chicken_need(state.player)
            expected, _ = best_choice(state.rolls, state.dice, need)
            assert playout(state, rng) == expected
            checked += 1
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    assert checked > 40


def test_the_search_weighs_the_experts_best_choices_only() -> None:
    state = replace(start(), stage=Stage.DECIDE, rolls=1, dice=parse_dice("WCCPPFFHR"))
    legal = state.legal_actions()
    weighed = candidates(state, legal)
    assert len(legal) > 20 and len(weighed) == CANDIDATES
    assert [move for move in legal if move in weighed] == list(weighed)  # in legal order
    values = choice_values(1, state.dice, 1)
    assert min(value for move, value in values if move in weighed) >= max(
        value for move, value in values if move not in weighed
    )
    assert best_choice(1, state.dice, 1)[0] in weighed
    few = replace(state, dice=parse_dice("HHHHHHHHH"))
    assert candidates(few, few.legal_actions()[:2]) == few.legal_actions()[:2]


def test_the_playout_refuses_other_games() -> None:
    other = spieltisch.load("awimbawe", 2).initial_state()
    with pytest.raises(TypeError, match="EierState"):
        playout(other, random.Random(0))


def test_even_standings_are_even_chances() -> None:
    for players in (2, 4, 6):
        chances = win_chances(start(players))
        assert chances == pytest.approx([1 / players] * players)
        assert evaluate(start(players), 0) == chances


def test_the_chances_sum_to_one_and_follow_the_scores() -> None:
    chances = win_chances(at(start(3), (30, 20, 10)))
    assert sum(chances) == pytest.approx(1.0)
    assert chances[0] > chances[1] > chances[2] > 0


def test_the_same_lead_counts_more_with_fewer_turns_left() -> None:
    early = win_chances(at(start(), (10, 0)))[0]
    late = win_chances(at(start(), (40, 30)))[0]
    assert 0.5 < early < late < 1


def test_a_player_still_to_throw_counts_an_average_turn() -> None:
    """After the first player's turn of 17 points, the second is about to throw: about even
    (an average turn with nine dice is some 17 points), not 17 points behind."""
    behind = win_chances(at(start(), (17, 0), player=1))
    assert behind[1] == pytest.approx(0.5, abs=0.01)
    assert win_chances(at(start(), (17, 0), player=0))[0] > 0.6


def test_no_estimate_mid_turn_or_near_the_end() -> None:
    state = start()
    assert at_turn_start(state)
    thrown = state.apply(state.sample_chance(random.Random(1)))
    assert thrown.stage is Stage.DECIDE and evaluate(thrown, 3) is None
    near = 100 - int(END_TURNS * MEAN_PER_DIE * 9) - 17  # with an average turn to come: in reach
    assert evaluate(at(state, (near, 0)), 1) is None
    assert evaluate(at(state, (near - 10, 0)), 1) is not None
    final = replace(state, sheet=replace(state.sheet, scores=(20, 10), final_round=True))
    assert evaluate(final, 1) is None
    tie = replace(state, sheet=replace(state.sheet, scores=(30, 30), tie_players=(0, 1)))
    assert evaluate(tie, 1) is None


def test_a_short_game_is_played_out_from_the_start() -> None:
    """With goal=20 the end is within reach at once: no playout is cut off."""
    assert evaluate(start(goal=20), 0) is None
