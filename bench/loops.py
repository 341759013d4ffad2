"""The bare random-playout loop the bench scripts time (one place, so every figure is of the
same loop): the rules alone, a random legal action or a sampled chance outcome each step, in
the engine's own loop (``core.playout``)."""

from __future__ import annotations

import random

from spieltisch.core.game import Game
from spieltisch.core.playout import random_playout


def random_game(game: Game, rng: random.Random) -> int:
    """Play one game of random legal actions (chance sampled from ``rng``); return how many
    moves were applied, chance outcomes included."""
    return random_playout(game.initial_state(), rng)[1]
