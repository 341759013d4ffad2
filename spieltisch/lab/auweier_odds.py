"""Auweier's odds: each player's chance to win from any position, read as the heuristic reads
a table.

The lab's game-quality measures need, at every decision, each player's chance to win. Auweier
has no exact expectation within reach (the decks are ordered by their owners), so the estimate
builds on the heuristic's own reading of the table (:mod:`..bots.reading`):

1. **Each female's next egg** goes to each player in proportion to the heuristic's chance that
   their lead there holds (``win_chance`` of their total less the best other), and is worth to
   them what the heuristic counts it (the eggs, their own colour, the colour bonus it adds).
   Her later eggs are shared evenly.
2. **Each player's final score** is then expected to be their score so far plus those shares,
   give or take a normal spread of :data:`SPREAD` times the square root of the eggs still to
   be won (fitted to heuristic games by ``bench/quality_estimates.py``, which prints the fit).
3. **Each player's chance** is that of holding the highest of these independent scores.

Everything it reads is on the table for all to see (worm totals, eggs left, egg cards won).
Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from spieltisch.games.auweier.bots.reading import Reading, read, win_chance
from spieltisch.games.auweier.rules import AuweierState
from spieltisch.games.auweier.view import AuweierView

SPREAD = 1.5
"""The spread of a final score per square root of the egg points still to be won."""
GRID = 201
"""Points at which the chance of holding the highest score is summed."""


def expected_scores(state: AuweierState) -> tuple[tuple[float, ...], float]:
    """Each player's expected final score, and the egg points still to be won."""
    view = state.view(0)
    reading = read(view)
    players = len(view.players)
    expected = [float(s) for s in state.scores()]
    left = 0.0
    for f in reading.females:
        eggs = view.females[f].eggs_left
        left += sum(eggs)
        for p, share in enumerate(next_egg_shares(reading, f)):
            expected[p] += share * reading.value[f][p]
        for egg in eggs[1:]:
            for p in range(players):
                expected[p] += (egg + _own(view, f, p)) / players
    return tuple(expected), left


def next_egg_shares(reading: Reading, female: int) -> list[float]:
    """Each player's share of ``female``'s next egg: the heuristic's chance that their lead
    there holds, over the sum of everyone's."""
    weights = [win_chance(reading.lead(female, p)) for p in range(reading.players)]
    total = sum(weights)
    return [w / total for w in weights]


def _own(view: AuweierView, female: int, player: int) -> int:
    return int(female == player and not view.females[female].neutral)


def win_chances(state: AuweierState, spread: float = SPREAD) -> tuple[float, ...]:
    """Each player's chance to win from ``state`` (the module docstring says how)."""
    if state.is_terminal():
        winners = state.winners()
        return tuple(1 / len(winners) if p in winners else 0.0 for p in range(len(state.scores())))
    expected, left = expected_scores(state)
    return top_chances(expected, spread * math.sqrt(left))


def top_chances(means: Sequence[float], spread: float) -> tuple[float, ...]:
    """Each of several independent normal scores' chance of being the highest (equal means
    share when ``spread`` is 0): the integral over ``x`` of one's density at ``x`` times the
    others' chances of lying below it, summed on a grid of :data:`GRID` points."""
    if spread <= 0:
        top = max(means)
        leaders = [p for p, m in enumerate(means) if m == top]
        return tuple(1 / len(leaders) if p in leaders else 0.0 for p in range(len(means)))
    centre = np.asarray(means, dtype=float)[:, None]
    x = np.linspace(centre.min() - 6 * spread, centre.max() + 6 * spread, GRID)[None, :]
    z = (x - centre) / spread
    density = np.exp(-0.5 * z * z)
    below = 0.5 * (1 + _erf(z / math.sqrt(2)))
    chances = []
    for p in range(len(means)):
        others = np.prod(np.delete(below, p, axis=0), axis=0)
        chances.append(float(np.sum(density[p] * others)))
    total = sum(chances)
    return tuple(c / total for c in chances)


_erf = np.vectorize(math.erf, otypes=[float])
"""The error function on arrays (numpy has none of its own)."""
