"""Auf die Eier's race odds (spieltisch.lab.eier_race): exact where the answer is known, and in
line with played-out games where it is not."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from spieltisch.games.auf_die_eier.bots.expert import ExpertAgent, decision_value, turn_value
from spieltisch.games.auf_die_eier.model import LADDER, Config, Stage
from spieltisch.games.auf_die_eier.notation import NO_DICE
from spieltisch.games.auf_die_eier.rules import EierState, Sheet, chicken_need, new_state
from spieltisch.lab import eier_race


def mean(outcome: np.ndarray) -> float:
    return float((outcome.sum(axis=0) * np.arange(outcome.shape[1])).sum())


@pytest.mark.parametrize("rung", range(len(LADDER) + 1))
def test_a_turn_s_outcomes_average_to_the_expert_s_exact_value(rung: int) -> None:
    need = chicken_need(rung)
    outcome = eier_race.fresh_turn(need, 9)
    assert outcome.sum() == pytest.approx(1.0)
    assert mean(outcome) == pytest.approx(turn_value(need))
    if need is None:
        assert outcome[1].sum() == 0  # no Chickens left to score: the ladder never moves


@pytest.mark.parametrize(
    ("rolls", "dice", "need"),
    [(1, (2, 1, 1, 2, 2, 1), 1), (2, (0, 3, 2, 1, 1, 2), 2), (1, (1, 1, 4, 1, 1, 1), None)],
)
def test_a_decision_s_outcomes_average_to_its_value(
    rolls: int, dice: tuple[int, ...], need: int | None
) -> None:
    outcome = eier_race.turn_outcomes(rolls, dice, need)
    assert outcome.sum() == pytest.approx(1.0)
    assert mean(outcome) == pytest.approx(decision_value(rolls, dice, need))


def at_turn_start(
    scores: tuple[int, ...], player: int, *, final: bool = False, ties: tuple[int, ...] = ()
) -> EierState:
    config = Config(len(scores))
    crossed = (0,) * len(scores)
    sheet = Sheet(config, scores, crossed, final, ties, frozenset(), None)
    return EierState(sheet, player, Stage.ROLL, 0, NO_DICE, config.dice)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_at_the_start_everyone_has_the_same_chance(players: int) -> None:
    # Every round is played out, so every player gets as many turns: a fair race.
    chances = eier_race.win_chances(new_state(players))
    assert chances == pytest.approx([1 / players] * players)


def test_the_last_turn_of_the_game_is_worked_out_exactly() -> None:
    turn = eier_race.fresh_turn(chicken_need(0), 9).sum(axis=0)
    # Seat 1 plays the final turn 10 points behind: it wins with more than 10, ties with 10.
    chances = eier_race.win_chances(at_turn_start((110, 100), 1, final=True))
    assert chances[1] == pytest.approx(turn[11:].sum() + turn[10] / 2)
    assert sum(chances) == pytest.approx(1.0)
    # More behind than any turn can score: lost.
    assert eier_race.win_chances(at_turn_start((140, 60), 1, final=True)) == (1.0, 0.0)


def test_only_the_tied_players_can_win_their_tie_turns() -> None:
    chances = eier_race.win_chances(at_turn_start((104, 90, 104), 0, final=True, ties=(0, 2)))
    assert chances == pytest.approx((0.5, 0.0, 0.5))


def test_an_ended_game_gives_its_winners() -> None:
    state = new_state(2)
    rng = random.Random(3)
    agent = ExpertAgent(state.game)
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(agent.act(state.view(state.player), state.legal_actions()))
        if not state.is_chance():
            chances = eier_race.win_chances(state)
            assert math.isclose(sum(chances), 1.0) and min(chances) >= 0
    assert eier_race.win_chances(state) == tuple(
        1 / len(state.winners()) if p in state.winners() else 0.0 for p in range(2)
    )


def play_out(state: EierState, agent: ExpertAgent, rng: random.Random) -> frozenset[int]:
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(agent.act(state.view(state.player), state.legal_actions()))
    return state.winners()


def test_the_odds_agree_with_games_played_out_from_the_middle() -> None:
    # Three players, the second mid-turn: the worked-out chances against 1,500 expert games
    # played out from there (each within four standard errors).
    state = at_turn_start((45, 56, 29), 1)
    state = EierState(state.sheet, 1, Stage.DECIDE, 1, (1, 1, 1, 1, 3, 2), 0)
    chances = eier_race.win_chances(state)
    agent = ExpertAgent(state.game)
    games = 1_500
    wins = [0.0, 0.0, 0.0]
    for seed in range(games):
        winners = play_out(state, agent, random.Random(seed))
        for p in winners:
            wins[p] += 1 / len(winners)
    for p in range(3):
        error = math.sqrt(chances[p] * (1 - chances[p]) / games)
        assert abs(wins[p] / games - chances[p]) < 4 * error, (p, wins, chances)
