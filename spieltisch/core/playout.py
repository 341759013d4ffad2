"""Random playouts: a state played to its end by uniformly random legal actions and chance
sampled with its true probabilities, all from one generator passed in.

One loop for whoever plays at random (the search's playouts without a policy, the benches'
engine loop). The draws are ``rng.randrange(len(legal))`` for a decision and the state's own
``sample_chance(rng)`` for chance, so a seed gives the same game as a loop written with those
calls. Pure: no I/O.
"""

from __future__ import annotations

import random

from spieltisch.core.chance import randbelow
from spieltisch.core.game import State


def random_playout(state: State, rng: random.Random) -> tuple[State, int]:
    """Play ``state`` to its end at random with ``rng``: the final state and how many moves
    were applied (chance outcomes included)."""
    moves = 0
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[randbelow(rng, len(legal))])
        moves += 1
    return state, moves
