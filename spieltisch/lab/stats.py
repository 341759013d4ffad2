"""Statistics for the lab: confidence intervals and Elo-style ratings from game results.

Pure functions on numbers; nothing here plays games. The resampling functions take the
generator they draw from, so a report is the same every time it is drawn. The cluster bootstrap
runs in numpy and gives exactly the numbers of drawing each replicate in Python with
``rng.choices`` and summing with ``sum`` (see :func:`cluster_bootstrap`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads only when a bootstrap runs (`import spieltisch` stays light)
    import numpy as np
    import numpy.typing as npt

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


# --- resampling, paired tests and sample sizes (the experiments' statistics) -------------------


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of the sorted ``ordered``, by linear interpolation."""
    if not ordered:
        return 0.0
    place = q * (len(ordered) - 1)
    low = math.floor(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (place - low)


BOOTSTRAP_CHUNK = 4_000_000
"""Draws (clusters times replicates) the bootstrap holds in memory at once."""
EXACT_BITS = 20
"""A metric whose every value is a multiple of 2**-EXACT_BITS (whole points, shared wins) sums
without rounding in any order, as long as no sum can reach 2**53 such steps."""


MATRIX_FROM = 3
"""From this many metrics that sum exactly, a bootstrap counts each cluster's draws once and
multiplies (one pass for all of them) instead of summing each metric's draws."""


def uniforms(rng: random.Random, count: int) -> npt.NDArray[np.float64]:
    """The next ``count`` values of ``rng.random()``, drawn in numpy, ``rng`` advanced past
    them: numpy's MT19937 started from ``rng``'s state makes the same 53-bit floats."""
    import numpy as np  # noqa: PLC0415 - lazy: numpy loads only when a bootstrap runs

    version, state, gauss = rng.getstate()
    bits = np.random.MT19937()
    key = np.array(state[:-1], dtype=np.uint32)
    bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": state[-1]}}
    draws = np.random.Generator(bits).random(count)
    after = bits.state["state"]
    rng.setstate((version, (*after["key"].tolist(), int(after["pos"])), gauss))
    return draws


def exact_columns(table: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Which columns of ``table`` (clusters by metrics) sum exactly in any order and any
    resample: every value a multiple of 2**-EXACT_BITS, and the clusters' largest value, times
    their number, below 2**53 of those steps."""
    import numpy as np  # noqa: PLC0415 - lazy: numpy loads only when a bootstrap runs

    scaled = table * 2.0**EXACT_BITS
    whole = np.all(scaled == np.floor(scaled), axis=0)
    small = np.abs(scaled).max(axis=0) * len(table) < 2.0**53
    return np.asarray(whole & small, dtype=np.bool_)


def cluster_bootstrap(
    sums: Sequence[Sequence[float]],
    counts: Sequence[int],
    rng: random.Random,
    replicates: int = 1000,
    level: float = 0.95,
) -> list[tuple[float, float, float]]:
    """Means with percentile bootstrap intervals, resampling whole clusters: ``sums[c][m]`` is
    metric ``m`` summed over the ``counts[c]`` games of cluster ``c`` (a deal), and each mean is
    a metric's total over its games. Games of one deal are not independent (the same dice, the
    same cards), so the deals, not the games, are drawn with replacement. Returns
    ``(mean, low, high)`` per metric; with fewer than two clusters the interval is the mean.

    Each replicate draws its clusters as ``rng.choices(range(len(sums)), k=len(sums))`` would
    and sums them as Python's ``sum`` does, so the intervals are those of the plain Python
    loop to the bit, only computed in numpy: a metric that sums exactly
    (:func:`exact_columns`) as each cluster's count of draws times its sums, any other as a
    running sum in the order drawn."""
    import numpy as np  # noqa: PLC0415 - lazy: numpy loads only when a bootstrap runs

    if not sums:
        return []
    metrics = len(sums[0])
    total = sum(counts)
    means = [sum(s[m] for s in sums) / max(total, 1) for m in range(metrics)]
    if len(sums) < 2:
        return [(mean, mean, mean) for mean in means]
    table = np.array(sums, dtype=np.float64).reshape(len(sums), metrics)
    draws = np.empty((metrics, replicates), dtype=np.float64)
    step = max(1, BOOTSTRAP_CHUNK // len(sums))
    for start in range(0, replicates, step):
        block = min(step, replicates - start)
        draws[:, start : start + block] = _replicates(table, counts, rng, block)
    tail = (1 - level) / 2
    result = []
    for mean, values in zip(means, np.sort(draws, axis=1).tolist(), strict=True):
        result.append((mean, percentile(values, tail), percentile(values, 1 - tail)))
    return result


def _replicates(
    table: npt.NDArray[np.float64], counts: Sequence[int], rng: random.Random, block: int
) -> npt.NDArray[np.float64]:
    """``block`` bootstrap replicates of every metric's mean (metrics by replicates)."""
    import numpy as np  # noqa: PLC0415 - lazy: numpy loads only when a bootstrap runs

    clusters, metrics = table.shape
    # Python's floor(random() * n); truncation is the floor of these non-negative floats.
    picked = (uniforms(rng, block * clusters) * float(clusters)).astype(np.intp)
    picked = picked.reshape(block, clusters)
    exact = exact_columns(table)
    games = np.array(counts, dtype=np.int64)[picked].sum(axis=1)
    games[games == 0] = 1
    out = np.empty((metrics, block), dtype=np.float64)
    matrix = int(exact.sum()) >= MATRIX_FROM
    if matrix:
        # Each cluster's count of draws in each replicate, times its sums: exact, so the
        # order of the additions does not matter. Adding 0.0 turns a -0.0 into the 0.0
        # Python's sum, starting from the integer 0, gives.
        places = picked + (np.arange(block, dtype=np.intp) * clusters)[:, None]
        times = np.bincount(places.ravel(), minlength=block * clusters).astype(np.float64)
        totals = times.reshape(block, clusters) @ table[:, exact] + 0.0
        out[exact] = (totals / games[:, None]).T
    for m in range(metrics):
        if matrix and exact[m]:
            continue
        drawn = table[:, m][picked]
        if exact[m]:  # exact in any order: numpy's (pairwise) sum will do
            out[m] = (drawn.sum(axis=1) + 0.0) / games
        else:  # a running sum in the order drawn, as Python's sum adds
            out[m] = (np.cumsum(drawn, axis=1)[:, -1] + 0.0) / games
    return out


def bootstrap_mean(
    values: Sequence[float], rng: random.Random, replicates: int = 1000, level: float = 0.95
) -> tuple[float, float, float]:
    """The mean of independent ``values`` with a percentile bootstrap interval."""
    if not values:
        return (0.0, 0.0, 0.0)
    return cluster_bootstrap([[v] for v in values], [1] * len(values), rng, replicates, level)[0]


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """A paired difference (variant minus baseline, one pair per deal) and its test."""

    pairs: int
    mean: float
    low: float
    high: float
    sd: float
    """The standard deviation of the per-deal differences."""
    p_value: float
    """Two-sided, from the paired z test (a normal approximation; fine from about 30 pairs)."""


def paired_difference(
    differences: Sequence[float], rng: random.Random, replicates: int = 1000
) -> PairedDifference:
    """The mean of per-deal ``differences`` with a bootstrap interval (the deals resampled,
    which is the cluster bootstrap for paired deals) and a paired z test of a zero mean."""
    n = len(differences)
    mean, low, high = bootstrap_mean(differences, rng, replicates)
    if n < 2:
        return PairedDifference(n, mean, low, high, 0.0, 1.0)
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    if sd == 0.0:
        return PairedDifference(n, mean, low, high, 0.0, 1.0 if mean == 0.0 else 0.0)
    z = mean / (sd / math.sqrt(n))
    return PairedDifference(n, mean, low, high, sd, math.erfc(abs(z) / math.sqrt(2)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: each p-value corrected for the family of all of them, so
    that calling every adjusted value below 0.05 significant keeps the chance of any false
    finding at 5%. Returned in the order given."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def games_for_rate(rate: float, half_width: float, z: float = Z95) -> int:
    """Independent games needed for a win rate near ``rate`` to be known within
    ``± half_width`` (95%): z² p(1 - p) / h²."""
    p = min(max(rate, 0.01), 0.99)
    return math.ceil(z * z * p * (1 - p) / (half_width * half_width))


def pairs_for_difference(sd: float, half_width: float, z: float = Z95) -> int:
    """Paired deals needed for a mean difference whose per-deal spread is ``sd`` to be known
    within ``± half_width`` (95%): (z sd / h)²."""
    return math.ceil((z * sd / half_width) ** 2) if sd > 0 else 1
