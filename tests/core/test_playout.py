"""``core.playout.random_playout`` plays the game a loop of ``randrange`` and ``sample_chance``
plays, move for move, from the same seed."""

from __future__ import annotations

import random

import pytest

import spieltisch
from spieltisch.core.game import State
from spieltisch.core.playout import random_playout


def _loop(state: State, rng: random.Random) -> tuple[State, int]:
    moves = 0
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        moves += 1
    return state, moves


@pytest.mark.parametrize("game_id", ["auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_playout_is_the_plain_loop(game_id: str, seed: int) -> None:
    game = spieltisch.load(game_id, 2)
    ours, theirs = random.Random(seed), random.Random(seed)
    end, moves = random_playout(game.initial_state(), ours)
    assert (end, moves) == _loop(game.initial_state(), theirs)
    assert end.is_terminal() and moves > 0
    assert ours.random() == theirs.random()  # the generators drew alike to the end


def test_a_finished_game_plays_no_move() -> None:
    game = spieltisch.load("awimbawe", 2)
    end, _ = random_playout(game.initial_state(), random.Random(3))
    assert random_playout(end, random.Random(3)) == (end, 0)
