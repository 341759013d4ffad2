"""The experiments' statistics: cluster bootstrap, paired differences, Holm, sample sizes; the
numpy cluster bootstrap equals the plain Python loop it replaced, to the bit."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.lab import stats
from spieltisch.lab.stats import (
    Z95,
    bootstrap_mean,
    cluster_bootstrap,
    games_for_rate,
    holm,
    paired_difference,
    pairs_for_difference,
    percentile,
    wilson_interval,
)


def test_holm_multiplies_the_smallest_p_by_the_family_size_and_keeps_the_order() -> None:
    p = [0.01, 0.04, 0.03, 0.5]
    adjusted = holm(p)
    assert adjusted[0] == 4 * p[0]
    # The second smallest is multiplied by 3, the third by 2 but never below the one before.
    assert adjusted[2] == 3 * p[2]
    assert adjusted[1] == max(3 * p[2], 2 * p[1])
    assert adjusted[3] == max(adjusted[1], p[3])
    assert all(a >= raw for a, raw in zip(adjusted, p, strict=True))


def test_the_cluster_bootstrap_is_wider_when_games_of_a_deal_agree() -> None:
    rng = random.Random(1)
    deals = [float(rng.random() < 0.5) for _ in range(100)]
    # Every deal played four times with the same outcome: 400 games, but only 100 deals.
    clustered = cluster_bootstrap([[4 * d] for d in deals], [4] * 100, random.Random(2))[0]
    naive = bootstrap_mean([d for d in deals for _ in range(4)], random.Random(2))
    assert math.isclose(clustered[0], naive[0])
    assert clustered[1] <= clustered[0] <= clustered[2]
    assert clustered[2] - clustered[1] > 1.5 * (naive[2] - naive[1])


def test_a_bootstrap_is_the_same_every_time_for_the_same_generator() -> None:
    values = [float(v % 7) for v in range(50)]
    assert bootstrap_mean(values, random.Random(3)) == bootstrap_mean(values, random.Random(3))
    assert cluster_bootstrap([[1.0], [2.0]], [1, 1], random.Random(0), replicates=10)[0][0] == 1.5
    assert cluster_bootstrap([[3.0]], [2], random.Random(0)) == [(1.5, 1.5, 1.5)]


def test_a_paired_difference_finds_a_shift_and_not_noise() -> None:
    rng = random.Random(4)
    noise = [rng.gauss(0, 1) for _ in range(400)]
    shifted = [x + 0.5 for x in noise]
    null = paired_difference(noise, random.Random(5))
    real = paired_difference(shifted, random.Random(5))
    assert real.p_value < 1e-6 and real.low > 0
    assert null.p_value > real.p_value and null.low < 0.5 < real.high
    assert paired_difference([0.0] * 10, random.Random(0)).p_value == 1.0


def test_the_sample_size_guide_gives_the_precision_it_promises() -> None:
    n = games_for_rate(0.5, 0.02)
    low, high = wilson_interval(n / 2, n)
    assert math.isclose((high - low) / 2, 0.02, rel_tol=0.01)
    assert games_for_rate(0.5, 0.01) > 3.9 * n
    pairs = pairs_for_difference(3.0, 0.5)
    assert math.isclose(Z95 * 3.0 / math.sqrt(pairs), 0.5, rel_tol=0.01)


def test_percentile_interpolates_between_neighbours() -> None:
    values = [0.0, 10.0]
    assert percentile(values, 0.25) == 2.5 and percentile([], 0.5) == 0.0


def python_loop_bootstrap(
    sums: list[list[float]], counts: list[int], rng: random.Random, replicates: int
) -> list[tuple[float, float, float]]:
    """The cluster bootstrap as a plain Python loop (how it was first written): the reference
    the numpy one must equal to the bit."""
    metrics = len(sums[0])
    means = [sum(s[m] for s in sums) / max(sum(counts), 1) for m in range(metrics)]
    draws: list[list[float]] = [[] for _ in range(metrics)]
    for _ in range(replicates):
        picked = rng.choices(range(len(sums)), k=len(sums))
        games = sum(counts[c] for c in picked) or 1
        for m in range(metrics):
            draws[m].append(sum(sums[c][m] for c in picked) / games)
    tail = (1 - 0.95) / 2
    result = []
    for mean, values in zip(means, draws, strict=True):
        values.sort()
        result.append((mean, percentile(values, tail), percentile(values, 1 - tail)))
    return result


cells = st.lists(
    st.tuples(
        st.lists(
            st.floats(-50, 50, allow_nan=False)
            | st.integers(-9, 9)
            | st.sampled_from([0.5, -1.5, 1 / 3, 2.0**-30]),
            min_size=3,
            max_size=3,
        ),
        st.integers(0, 4),
    ),
    min_size=2,
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(
    cells=cells,
    seed=st.integers(0, 2**32),
    replicates=st.integers(1, 60),
    chunk=st.booleans(),
    matrix=st.booleans(),
)
def test_the_numpy_bootstrap_draws_what_the_python_loop_draws(
    cells: list[tuple[list[float], int]], seed: int, replicates: int, chunk: bool, matrix: bool
) -> None:
    sums = [row for row, _ in cells]
    counts = [count for _, count in cells]
    ours, theirs = random.Random(seed), random.Random(seed)
    with pytest.MonkeyPatch.context() as patch:
        if chunk:  # a few replicates at a time, as a large study is drawn
            patch.setattr(stats, "BOOTSTRAP_CHUNK", 3 * len(sums))
        # Exact metrics counted by cluster (from one), or each summed over its draws.
        patch.setattr(stats, "MATRIX_FROM", 1 if matrix else 4)
        got = cluster_bootstrap(sums, counts, ours, replicates)
    assert got == python_loop_bootstrap(sums, counts, theirs, replicates)
    assert ours.getstate() == theirs.getstate()  # the generator moved on as far
