"""Auweier's odds (spieltisch.lab.auweier_odds): the chance of the highest of independent normal
scores, and the reading of a played game's table."""

from __future__ import annotations

import math
import random

import pytest

import spieltisch
from spieltisch.games.auweier.bots.reading import read
from spieltisch.games.auweier.rules import AuweierState
from spieltisch.lab import auweier_odds
from spieltisch.lab.agents import lab_agent
from spieltisch.lab.play import play_on


@pytest.mark.parametrize(("first", "second", "spread"), [(10.0, 8.0, 2.0), (3.0, 7.5, 4.0)])
def test_two_scores_match_the_closed_form(first: float, second: float, spread: float) -> None:
    # The first is ahead when first - second, normal with spread * sqrt(2), is above 0.
    z = (first - second) / (spread * math.sqrt(2))
    expected = 0.5 * (1 + math.erf(z / math.sqrt(2)))
    chances = auweier_odds.top_chances((first, second), spread)
    assert chances[0] == pytest.approx(expected, abs=1e-3)
    assert sum(chances) == pytest.approx(1.0)


def test_equal_scores_share_and_a_settled_table_goes_to_its_leaders() -> None:
    assert auweier_odds.top_chances((5.0, 5.0, 5.0), 3.0) == pytest.approx([1 / 3] * 3)
    assert auweier_odds.top_chances((9.0, 4.0, 9.0), 0.0) == (0.5, 0.0, 0.5)
    far = auweier_odds.top_chances((30.0, 0.0), 1.0)
    assert far[0] == pytest.approx(1.0) and far[1] < 1e-9


def played(players: int, seed: int) -> list[AuweierState]:
    game = spieltisch.load("auweier", players)
    agents = [lab_agent("heuristic", game, seed + p) for p in range(players)]
    states = list(play_on(game.initial_state(), agents, random.Random(seed)))
    assert all(isinstance(s, AuweierState) for s in states)
    return [s for s in states if isinstance(s, AuweierState)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_played_game_s_chances_are_chances_and_end_with_its_winners(players: int) -> None:
    states = played(players, 11)
    first = next(s for s in states if not s.is_chance())
    # Before any worm is down every seat is alike (each has a female of its colour).
    assert auweier_odds.win_chances(first) == pytest.approx([1 / players] * players)
    for state in states:
        if state.is_chance():
            continue
        chances = auweier_odds.win_chances(state)
        assert math.isclose(sum(chances), 1.0) and min(chances) >= 0
        expected, left = auweier_odds.expected_scores(state)
        assert all(e >= s for e, s in zip(expected, state.scores(), strict=True))
        assert left >= 0
    end = states[-1]
    winners = end.winners()
    assert auweier_odds.win_chances(end) == tuple(
        1 / len(winners) if p in winners else 0.0 for p in range(players)
    )


def test_a_lead_before_a_female_raises_the_leader_s_chance() -> None:
    # Somewhere in a played game a worm total opens a lead: the leader's expected score
    # then counts more of that female's next egg than any other player's does.
    for state in played(2, 5):
        if state.is_chance() or state.is_terminal():
            continue
        view = state.view(0)
        for f, female in enumerate(view.females):
            totals = [stack.total for stack in female.stacks]
            if female.eggs_left and not female.closed and totals[0] >= totals[1] + 5:
                shares = auweier_odds.next_egg_shares(read(view), f)
                assert shares[0] > 0.5 > shares[1]
                return
    pytest.fail("no lead of five worm points in the game")
