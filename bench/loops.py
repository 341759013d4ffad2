"""The bare random-playout loop the bench scripts time (one place, so every figure is of the
same loop): the rules alone, a random legal action or a sampled chance outcome each step."""

from __future__ import annotations

import random

from spieltisch.core.game import Game


def random_game(game: Game, rng: random.Random) -> int:
    """Play one game of random legal actions (chance sampled from ``rng``); return how many
    moves were applied, chance outcomes included."""
    moves = 0
    state = game.initial_state()
    while not state.is_terminal():
        if state.is_chance():
            move = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            move = legal[rng.randrange(len(legal))]
        state = state.apply(move)
        moves += 1
    return moves
