"""Arena plots: win rates with their 95% intervals, and each agent's score distribution."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from spieltisch.lab.summary import AgentRow, ArenaSummary

FEW_SCORES = 8
"""Scores that take at most this many values (a match's round wins) are drawn as bars."""


def arena_plot(summary: ArenaSummary, title: str, path: Path, *, players: int) -> None:
    """Write a PNG with win rates (and intervals) beside score distributions. ``players`` is
    the number of seats at each table, which sets the even share a win rate is read against
    (one agent may fill several seats, so the agents alone do not tell it)."""
    rows = summary.agents
    names = [r.agent for r in rows]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    _win_rates(left, names, rows, players)
    _scores(right, names, [[float(s) for s in r.scores] for r in rows])
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _win_rates(axes: Axes, names: list[str], rows: Sequence[AgentRow], players: int) -> None:
    """Bars of each agent's win rate with its 95% interval; the dashed line is a seat's even
    share, one game in ``players``."""
    rates = [r.win_rate for r in rows]
    bounds = [r.win_rate_ci95 for r in rows]
    low = [rate - b[0] for rate, b in zip(rates, bounds, strict=True)]
    high = [b[1] - rate for rate, b in zip(rates, bounds, strict=True)]
    axes.bar(names, rates, yerr=[low, high], capsize=8, color="tab:blue", alpha=0.8)
    axes.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95% interval)")
    axes.set_title("Win rate")


def _scores(axes: Axes, names: list[str], scores: Sequence[Sequence[float]]) -> None:
    """Each agent's final scores: the share of games at each score when there are few values
    (a box plot would hide them), otherwise a box plot with the mean marked."""
    values = sorted({s for agent in scores for s in agent})
    if len(values) > FEW_SCORES:
        axes.boxplot(scores, tick_labels=names, showmeans=True)
        axes.set_ylabel("final score")
    else:
        width = 0.8 / max(len(names), 1)
        for i, (name, agent) in enumerate(zip(names, scores, strict=True)):
            counts = Counter(agent)
            shares = [counts[v] / max(len(agent), 1) for v in values]
            positions = [k + (i - (len(names) - 1) / 2) * width for k in range(len(values))]
            axes.bar(positions, shares, width=width, label=name, alpha=0.8)
        axes.set_xticks(range(len(values)), [f"{v:g}" for v in values])
        axes.set_xlabel("final score")
        axes.set_ylabel("share of games")
        axes.legend()
    axes.set_title("Score distribution")
