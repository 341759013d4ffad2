"""Awimbawé's odds see inside a round: the estimate beats an even split on games it was not
fitted to, and with one round to win the game-quality measures vary from game to game (with
the match odds alone they were constants: no lead ever changed)."""

from __future__ import annotations

import math
import random

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.games.awimbawe.bots.evaluate import match_odds
from spieltisch.games.awimbawe.rules import AwimbaweState
from spieltisch.lab import awimbawe_odds
from spieltisch.lab.engine import Task, play_task
from spieltisch.lab.play import play_on

GAMES = 40
"""Held-out games (other seeds than the fit's) for the scores."""


def _rounds(seed: int) -> list[tuple[AwimbaweState, int]]:
    """Every in-round decision of a heuristic game, with whether seat 0 took that round."""
    game = spieltisch.load("awimbawe", 2)
    agents = [make_agent("heuristic", game, seed + p) for p in range(2)]
    states = list(play_on(game.initial_state(), agents, random.Random(seed), 0.05))
    final = states[-1]
    assert isinstance(final, AwimbaweState)
    winners = {r.number: r.winner for r in final.match.results}
    return [
        (s, int(winners[s.match.round] == 0))
        for s in states
        if isinstance(s, AwimbaweState) and s.stage in awimbawe_odds.IN_ROUND and not s.is_chance()
    ]


def test_the_round_chance_beats_an_even_split_on_games_it_was_not_fitted_to() -> None:
    rows = [row for g in range(GAMES) for row in _rounds(9_000 + g)]
    loss = brier = 0.0
    for state, won in rows:
        p = awimbawe_odds.round_chance(state)
        loss -= math.log(p if won else 1 - p)
        brier += (p - won) ** 2
    loss, brier = loss / len(rows), brier / len(rows)
    assert loss < math.log(2) - 0.03 and brier < 0.25 - 0.015, (loss, brier)


def test_the_match_odds_add_the_round_in_play_to_the_rounds_won() -> None:
    for state, _ in _rounds(3)[::7]:
        chances = awimbawe_odds.win_chances(state)
        assert math.isclose(sum(chances), 1.0)
        wins, needed = state.match.wins, state.match.config.rounds_to_win
        left = (needed - wins[0], needed - wins[1])
        # the round in play moves the match odds between losing it and taking it
        low, high = match_odds((left[0], left[1] - 1)), match_odds((left[0] - 1, left[1]))
        assert low < chances[0] < high


def test_with_one_round_to_win_the_measures_vary_from_game_to_game() -> None:
    seen: dict[str, set[float | None]] = {}
    for seed in range(6):
        task = Task(
            "awimbawe", 2, (("rounds_to_win", 1),), 0, 0, ("heuristic",) * 2, seed, trace=True
        )
        for key, value in play_task(task).measures:
            seen.setdefault(key, set()).add(value)
    for key in ("lead-changes", "drama", "decisiveness", "uncertainty"):
        assert len(seen[key]) > 1, (key, seen[key])
    assert all(0.0 < v < 1.0 for v in seen["uncertainty"] if v is not None)
