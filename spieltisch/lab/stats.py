"""Statistics for the lab: confidence intervals and Elo-style ratings from game results.

Pure functions on numbers; nothing here plays games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054
"""The two-sided 95% point of the standard normal distribution."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a success rate (shared wins may count as fractions)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At a rate of 0 or 1 the bound is the rate itself; rounding must not leave it outside.
    return (min(max(0.0, centre - half), p), max(min(1.0, centre + half), p))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` with a normal-approximation 95% interval: (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


PairResults = Mapping[tuple[str, str], float]
"""Points ``a`` scored against ``b`` (a win 1, a draw 1/2), summed over their meetings."""


def elo_ratings(
    wins: PairResults, players: Sequence[str], iterations: int = 500, prior: float = 1.0
) -> dict[str, float]:
    """Elo-style ratings (mean 1500) fitted by Bradley-Terry to head-to-head results.

    ``prior`` adds that many drawn games between every pair, so a player who won or lost
    everything still gets a finite rating.
    """
    names = list(players)
    points = {(a, b): wins.get((a, b), 0.0) + prior / 2 for a in names for b in names if a != b}
    games = {(a, b): points[(a, b)] + points[(b, a)] for a, b in points}
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        updated = {}
        for a in names:
            won = sum(points[(a, b)] for b in names if b != a)
            expected = sum(games[(a, b)] / (strength[a] + strength[b]) for b in names if b != a)
            updated[a] = won / expected if expected else strength[a]
        scale = math.exp(sum(math.log(v) for v in updated.values()) / len(updated))
        strength = {a: v / scale for a, v in updated.items()}
    return {a: 1500 + 400 * math.log10(strength[a]) for a in names}
