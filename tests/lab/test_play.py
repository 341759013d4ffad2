"""Playing on from a state, as the studies in scripts/ do."""

from __future__ import annotations

import random

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.lab.play import play_game, play_on


def test_playing_on_from_the_start_is_the_game_play_game_plays() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    agents = [make_agent("heuristic", game, 1), make_agent("heuristic", game, 2)]
    start = game.initial_state()
    states = list(play_on(start, agents, random.Random(5)))
    assert states[0] is start and states[-1].is_terminal()
    assert not any(s.is_terminal() for s in states[:-1])
    assert states[-1] == play_game(game, agents, 5).state


def test_a_share_of_random_moves_changes_the_game_but_keeps_it_legal() -> None:
    game = spieltisch.load("auf-die-eier", 2)
    agents = [make_agent("heuristic", game, 1), make_agent("heuristic", game, 2)]
    steady = list(play_on(game.initial_state(), agents, random.Random(5)))
    shaken = list(play_on(game.initial_state(), agents, random.Random(5), random_share=0.5))
    assert shaken[-1].is_terminal() and shaken[-1] != steady[-1]
