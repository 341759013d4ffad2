"""The statistics of an experiment: per cell, and per pair of variants at one player count.

Per cell: each seat's win rate with a Wilson interval, each seat's mean score and margin and the
game length with cluster-bootstrap intervals (deals resampled), how many games a seat's win rate
would need for ±2 points, and a warning for a cell too small to say much. Per pair of variants
at the same player count: the paired difference (one pair per deal, since both variants played
the same deals) in the first seat's win rate, the mean score and the game length, with a
bootstrap interval and a paired test, the p-values Holm-corrected over the whole experiment.
An agent that wins less per seat than the random seats of the same cell (the difference's
interval wholly below zero) is named in the report's warnings. A metric that is constant in
a cell (every game gives the same number) is named in the cell's warnings, and a pair in
which it is constant in both cells is not tested: a number that cannot vary says nothing
about an effect, and a test of it would only take a place in Holm's family. Likewise a metric
with no value in a cell (a plug-in's comeback rate where one round wins the match) is named
there and not tested against it.
Everything is drawn from generators seeded by the experiment, so a report never changes.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from spieltisch.lab.engine import GameResult, derive_seed
from spieltisch.lab.experiment import Cell, CellResults, Experiment
from spieltisch.lab.metrics import Metric
from spieltisch.lab.quality import CURVE_KEYS
from spieltisch.lab.stats import (
    PairedDifference,
    cluster_bootstrap,
    games_for_rate,
    holm,
    paired_difference,
    pairs_for_difference,
    percentile,
    wilson_interval,
)
from spieltisch.lab.words import counted

SMALL_CELL = 200
"""Below this many games a cell is warned about: a seat's win rate is then known only within
about ±7 points, too loose to call a few points of seat advantage."""
PRECISION = 0.02
"""The half-width the sample-size guide aims at: a win rate within ±2 points."""
ALPHA = 0.05
"""Significance level, after the Holm correction."""
ALL_PAIRS_UP_TO = 4
"""With at most this many variants of a grid every pair is compared; with more, and always for
variants listed one by one (each a change from the first), each against the first."""
REPLICATES = 1000


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95% interval."""

    value: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat of a cell (seat 1 moves first)."""

    seat: int
    win_rate: Interval
    score: Interval
    margin: Interval
    """The seat's score minus the best other score."""


@dataclass(frozen=True, slots=True)
class CellStats:
    """One cell's figures."""

    cell: Cell
    games: int
    deals: int
    unfinished: int
    seats: tuple[SeatStats, ...]
    length: Interval
    """Player decisions per game."""
    agents: tuple[tuple[str, Interval], ...]
    """Win rate per agent (only when the lineup mixes agents)."""
    games_needed: int
    """Games for a seat's win rate within ±2 points (the sample-size guide)."""
    warning: str
    scores: tuple[tuple[int, ...], ...]
    """Every finished game's scores, seat by seat (for the distributions)."""
    metrics: tuple[tuple[Metric, Interval | None, int], ...] = ()
    """Each of the experiment's metrics: its mean with an interval, and the games it covers."""
    length_quantiles: tuple[tuple[int, float], ...] = ()
    """The game length's distribution: (percent, decisions) at 10, 25, 50, 75 and 90%."""
    agent_scores: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Each agent's final scores over its seats (only when the lineup mixes agents)."""
    uncertainty_curve: tuple[float, ...] = ()
    """Uncertainty over time: its mean in each tenth of the game, over the traced games."""
    constant: tuple[tuple[str, float], ...] = ()
    """The metrics (key, value) every game of the cell gives the same number for."""
    behind_random: tuple[tuple[str, Interval], ...] = ()
    """The agents that win less per seat than the random seats of the same games, with the
    difference in win share and its 95% interval (see :func:`behind_random`)."""


QUANTILES = (10, 25, 50, 75, 90)


@dataclass(frozen=True, slots=True)
class Comparison:
    """A variant against a baseline at one player count, on one metric."""

    players: int
    baseline: str
    variant: str
    metric: str
    """The metric's title."""
    difference: PairedDifference
    p_holm: float
    pairs_needed: int
    """Paired deals for this difference to be known within the precision of its metric."""
    percent: bool = False
    """Whether the metric reads in percentage points."""
    precision: float = 1.0
    """The metric's precision (the half-width its sample-size guide aims at)."""

    @property
    def significant(self) -> bool:
        """Whether the Holm-corrected p-value is below 5%."""
        return self.p_holm < ALPHA


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything the report says."""

    experiment: Experiment
    cells: tuple[CellStats, ...]
    comparisons: tuple[Comparison, ...]


def analyse(experiment: Experiment, cells: Sequence[CellResults]) -> Analysis:
    """The statistics of a run (see the module docstring)."""
    stats = tuple(cell_stats(experiment, c) for c in cells)
    raw = list(_comparisons(experiment, cells))
    adjusted = holm([c.difference.p_value for c in raw])
    comparisons = tuple(replace(c, p_holm=p) for c, p in zip(raw, adjusted, strict=True))
    return Analysis(experiment, stats, comparisons)


def _by_deal(results: Sequence[GameResult]) -> dict[int, list[GameResult]]:
    deals: dict[int, list[GameResult]] = {}
    for result in results:
        if result.finished:
            deals.setdefault(result.deal, []).append(result)
    return deals


def _margins(result: GameResult) -> list[int]:
    scores = result.scores
    return [s - max(o for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores)]


def cell_stats(experiment: Experiment, cell_results: CellResults) -> CellStats:
    """The figures of one cell."""
    cell = cell_results.cell
    metrics = experiment.measured()
    players = cell.players
    played = cell_results.played
    finished = [r for r in played if r.finished]
    deals = _by_deal(finished)
    sums: list[list[float]] = []
    counts: list[int] = []
    for games in deals.values():
        row = [0.0] * (3 * players + 1)
        for result in games:
            margins = _margins(result)
            for seat in range(players):
                row[seat] += result.returns[seat]
                row[players + seat] += result.scores[seat]
                row[2 * players + seat] += margins[seat]
            row[3 * players] += result.actions
        sums.append(row)
        counts.append(len(games))
    rng = random.Random(derive_seed(experiment.seed, "bootstrap", cell.index))
    means = cluster_bootstrap(sums, counts, rng, REPLICATES)
    n = len(finished)
    seats = []
    for seat in range(players):
        wins = sum(r.returns[seat] for r in finished)
        low, high = wilson_interval(wins, n)
        score = means[players + seat] if means else (0.0, 0.0, 0.0)
        margin = means[2 * players + seat] if means else (0.0, 0.0, 0.0)
        seats.append(
            SeatStats(
                seat + 1,
                Interval(wins / max(n, 1), low, high),
                Interval(*score),
                Interval(*margin),
            )
        )
    length = Interval(*means[3 * players]) if means else Interval(0.0, 0.0, 0.0)
    agents = _agent_rates(finished) if len(set(experiment.lineup(players))) > 1 else ()
    needed = games_for_rate(1 / players, PRECISION)
    warning = ""
    if n < SMALL_CELL:
        half = (seats[0].win_rate.high - seats[0].win_rate.low) / 2 if seats else 1.0
        warning = (
            f"only {counted(n, 'game')}: a seat's win rate is known within about "
            f"±{100 * half:.0f} points; "
            f"±{100 * PRECISION:.0f} points takes about {counted(needed, 'game')}"
        )
    return CellStats(
        cell,
        n,
        len(deals),
        len(played) - n,
        tuple(seats),
        length,
        agents,
        needed,
        warning,
        tuple(r.scores for r in finished),
        tuple(_metric_stats(experiment, cell, m, i, deals) for i, m in enumerate(metrics)),
        _quantiles([float(r.actions) for r in finished]),
        _agent_scores(finished) if agents else (),
        _uncertainty_curve(finished),
        tuple(
            (m.key, value) for m in metrics if (value := constant_value(finished, m)) is not None
        ),
        behind_random(
            finished, random.Random(derive_seed(experiment.seed, "behind-random", cell.index))
        ),
    )


CONSTANT_NOTE = "constant in this cell: cannot vary, left out of the tests"
NO_VALUE_NOTE = "has no value in this cell (no game says anything about it): left out of its tests"
RANDOM = "random"
"""The agent that plays uniformly at random: the floor every other agent should clear."""


def behind_random(
    results: Sequence[GameResult], rng: random.Random
) -> tuple[tuple[str, Interval], ...]:
    """The agents of a lineup that also seats random whose win share per seat is below
    random's in the same games, with the interval of the difference wholly below zero.

    Per deal (its games share their chance), each agent's mean return per seat it held minus
    the random seats' mean return; the mean over deals with a bootstrap 95% interval (deals
    resampled). A cell without a random seat says nothing here: its agents' shares could only
    be set against the even share ``1 / players``, which tells a weaker agent from a stronger
    one, not one worse than random."""
    deals = _by_deal(results)
    names = {name for games in deals.values() for r in games for name in r.seats}
    if RANDOM not in names or len(names) < 2:
        return ()
    behind = []
    for name in sorted(names - {RANDOM}):
        differences = []
        for games in deals.values():
            mine = [r.returns[s] for r in games for s, n in enumerate(r.seats) if n == name]
            theirs = [r.returns[s] for r in games for s, n in enumerate(r.seats) if n == RANDOM]
            if mine and theirs:
                differences.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
        if len(differences) < 2:
            continue
        d = paired_difference(differences, rng, REPLICATES)
        if d.high < 0:
            behind.append((name, Interval(d.mean, d.low, d.high)))
    return tuple(behind)


def constant_value(results: Sequence[GameResult], metric: Metric) -> float | None:
    """The one number ``metric`` gives for every finished game of ``results`` that says
    something about it, or ``None`` when it varies (or no game says anything)."""
    values = {v for v in (metric.value(r) for r in results if r.finished) if v is not None}
    return values.pop() if len(values) == 1 else None


def _uncertainty_curve(results: Sequence[GameResult]) -> tuple[float, ...]:
    """The mean of each tenth's uncertainty over the games that carry all ten (traced ones)."""
    rows = []
    for result in results:
        if result.measures:  # an untraced game has no curve
            measures = dict(result.measures)
            rows.append([measures.get(key) for key in CURVE_KEYS])
    complete = [[v for v in row if v is not None] for row in rows if None not in row]
    if not complete:
        return ()
    return tuple(statistics.fmean(column) for column in zip(*complete, strict=True))


def _agent_scores(results: Sequence[GameResult]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    scores: dict[str, list[int]] = {}
    for result in results:
        for name, score in zip(result.seats, result.scores, strict=True):
            scores.setdefault(name, []).append(score)
    return tuple((name, tuple(values)) for name, values in sorted(scores.items()))


def _metric_stats(
    experiment: Experiment,
    cell: Cell,
    metric: Metric,
    index: int,
    deals: dict[int, list[GameResult]],
) -> tuple[Metric, Interval | None, int]:
    """One metric's mean over a cell's games, with a cluster-bootstrap interval (deals
    resampled), and how many games it covers (a game may say nothing about it)."""
    sums: list[list[float]] = []
    counts: list[int] = []
    for games in deals.values():
        values = [v for v in (metric.value(g) for g in games) if v is not None]
        if values:
            sums.append([sum(values)])
            counts.append(len(values))
    rng = random.Random(derive_seed(experiment.seed, "metric", cell.index, index))
    means = cluster_bootstrap(sums, counts, rng, REPLICATES)
    return metric, Interval(*means[0]) if means else None, sum(counts)


def _quantiles(values: list[float]) -> tuple[tuple[int, float], ...]:
    if not values:
        return ()
    ordered = sorted(values)
    return tuple((q, percentile(ordered, q / 100)) for q in QUANTILES)


def _agent_rates(results: Sequence[GameResult]) -> tuple[tuple[str, Interval], ...]:
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    for result in results:
        for seat, name in enumerate(result.seats):
            wins[name] = wins.get(name, 0.0) + result.returns[seat]
            seats[name] = seats.get(name, 0) + 1
    rows = []
    for name in sorted(wins):
        low, high = wilson_interval(wins[name], seats[name])
        rows.append((name, Interval(wins[name] / seats[name], low, high)))
    return tuple(rows)


def _deal_means(results: Sequence[GameResult], metric: Metric) -> dict[int, float]:
    """Per deal, the mean of ``metric`` over the deal's games that say something about it."""
    out = {}
    for deal, games in _by_deal(results).items():
        values = [v for v in (metric.value(g) for g in games) if v is not None]
        if values:
            out[deal] = sum(values) / len(values)
    return out


def _comparisons(experiment: Experiment, cells: Sequence[CellResults]) -> list[Comparison]:
    out = []
    for players in experiment.players:
        group = [c for c in cells if c.cell.players == players]
        if len(group) < 2:
            continue
        if len(group) <= ALL_PAIRS_UP_TO and not experiment.variants:
            pairs = [(a, b) for i, a in enumerate(group) for b in group[i + 1 :]]
        else:
            pairs = [(group[0], b) for b in group[1:]]
        for base, other in pairs:
            for m, metric in enumerate(experiment.measured()):
                if all(constant_value(c.played, metric) is not None for c in (base, other)):
                    continue  # cannot vary: no effect to test (see CONSTANT_NOTE)
                a = _deal_means(base.played, metric)
                b = _deal_means(other.played, metric)
                shared = sorted(set(a) & set(b))
                if not shared:
                    continue  # no deal says anything in both cells (see NO_VALUE_NOTE)
                rng = random.Random(
                    derive_seed(experiment.seed, "pair", base.cell.index, other.cell.index, m)
                )
                diff = paired_difference([b[d] - a[d] for d in shared], rng, REPLICATES)
                needed = pairs_for_difference(diff.sd, metric.precision)
                out.append(
                    Comparison(
                        players,
                        base.cell.label,
                        other.cell.label,
                        metric.title,
                        diff,
                        1.0,
                        needed,
                        metric.percent,
                        metric.precision,
                    )
                )
    return out
