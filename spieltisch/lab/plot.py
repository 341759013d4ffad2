"""The lab's plots: arena win rates and scores; an experiment's seat advantage, variant effects,
score distributions and uncertainty over time; a parameter search. (matplotlib loads only
here.)"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from spieltisch.lab.analysis import CellStats, Comparison
from spieltisch.lab.summary import AgentRow, ArenaSummary
from spieltisch.lab.tune import Answer, TuneSpec

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


# --- an experiment's plots --------------------------------------------------------------------


def seat_advantage_plot(cells: Sequence[CellStats], title: str, path: Path) -> None:
    """Each seat's win rate with its 95% interval, one panel per player count, one colour per
    variant; the dashed line is a seat's even share."""
    counts = sorted({c.cell.players for c in cells})
    figure, panels = plt.subplots(
        1, len(counts), figsize=(4.2 * len(counts) + 1, 4.2), squeeze=False
    )
    for axes, players in zip(panels[0], counts, strict=True):
        group = [c for c in cells if c.cell.players == players]
        width = 0.8 / max(len(group), 1)
        for i, stats in enumerate(group):
            rates = [s.win_rate.value for s in stats.seats]
            low = [s.win_rate.value - s.win_rate.low for s in stats.seats]
            high = [s.win_rate.high - s.win_rate.value for s in stats.seats]
            positions = [k + 1 + (i - (len(group) - 1) / 2) * width for k in range(players)]
            axes.bar(
                positions,
                rates,
                width=width,
                yerr=[low, high],
                capsize=3,
                label=_wrap(stats.cell.label, 30),
            )
        axes.axhline(1 / players, color="grey", linestyle="--", linewidth=1, label="even share")
        axes.set_xticks(range(1, players + 1))
        axes.set_xlabel("seat (1 moves first)")
        axes.set_ylabel("win rate (95% interval)")
        axes.set_title(f"{players} players")
        axes.set_ylim(0, min(1.0, max(0.6, 2.2 / players)))
        axes.legend(fontsize="x-small")
    figure.suptitle(_wrap(title, 70))
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def forest_plot(comparisons: Sequence[Comparison], title: str, path: Path) -> None:
    """Each variant effect (variant minus baseline) with its 95% interval, one panel per metric
    (win rates in points); filled red dots are significant after the Holm correction."""
    metrics = list(dict.fromkeys(c.metric for c in comparisons))
    rows = max((sum(1 for c in comparisons if c.metric == m) for m in metrics), default=1)
    figure, panels = plt.subplots(
        len(metrics) or 1,
        1,
        figsize=(9, 0.9 + (0.32 * rows + 0.8) * max(len(metrics), 1)),
        squeeze=False,
        layout="constrained",
    )
    for axes, metric in zip(panels[:, 0], metrics, strict=False):
        group = [c for c in comparisons if c.metric == metric]
        scale = 100.0 if group[0].percent else 1.0
        for y, c in enumerate(group):
            d = c.difference
            colour = "tab:red" if c.significant else "tab:blue"
            axes.errorbar(
                [scale * d.mean],
                [y],
                xerr=[[scale * (d.mean - d.low)], [scale * (d.high - d.mean)]],
                fmt="o",
                color=colour,
                mfc=colour if c.significant else "white",
                capsize=3,
            )
        axes.axvline(0, color="grey", linestyle="--", linewidth=1)
        labels = [
            _wrap(f"{c.players}p: {_values(c.variant)} vs {_values(c.baseline)}") for c in group
        ]
        axes.set_yticks(range(len(group)), labels, fontsize="x-small")
        axes.set_ylim(len(group) - 0.5, -0.5)
        unit = " (points)" if scale == 100.0 else ""
        axes.set_title(f"{metric}{unit}", fontsize="medium")
    names = dict.fromkeys(re.findall(r"([\w]+)=", " ".join(c.variant for c in comparisons)))
    figure.legend(
        handles=[
            Line2D([], [], marker="o", linestyle="", color="tab:red", label="significant (Holm)"),
            Line2D(
                [], [], marker="o", linestyle="", color="tab:blue", mfc="white",
                label="not significant",
            ),
        ],
        loc="outside lower center",
        ncols=2,
        fontsize="small",
    )  # fmt: skip
    figure.suptitle(_wrap(f"{title} ({', '.join(names)})" if names else title, 70))
    figure.savefig(path, dpi=110)
    plt.close(figure)


def _wrap(text: str, width: int = 40) -> str:
    """A long label broken over lines, so it neither runs off the figure nor over its neighbour."""
    # Break after "=" and ", " rather than inside an option's name.
    spaced = text.replace("=", "= ")
    lines = textwrap.wrap(spaced, width, break_long_words=False, break_on_hyphens=False)
    return "\n".join(line.replace("= ", "=") for line in lines) or text


def _values(label: str) -> str:
    """A variant's label without its option names (``ends_game, true``); the names are in the
    plot's title."""
    return re.sub(r"[\w]+=", "", label)


def score_plot(cells: Sequence[CellStats], title: str, path: Path) -> None:
    """The distribution of every seat's final score per cell, as box plots (means marked)."""
    data: list[list[float]] = []
    labels: list[str] = []
    for c in cells:
        groups = c.agent_scores or (("", tuple(s for scores in c.scores for s in scores)),)
        for agent, scores in groups:
            data.append([float(s) for s in scores] or [0.0])
            who = f"\n{agent}" if agent else ""
            labels.append(f"{c.cell.players}p\n{_wrap(c.cell.label, 18)}{who}")
    figure, axes = plt.subplots(figsize=(max(6.0, 1.5 * len(data) + 2), 5))
    axes.boxplot(data, tick_labels=labels, showmeans=True)
    axes.tick_params(axis="x", labelsize="x-small")
    axes.set_ylabel("final score (each agent's seats)" if len(data) > len(cells) else "final score")
    axes.set_title(_wrap(title, 70))
    axes.legend(
        handles=[
            Line2D([], [], color="tab:orange", label="median"),
            Line2D([], [], marker="^", linestyle="", color="tab:green", label="mean"),
        ],
        fontsize="x-small",
    )
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def uncertainty_plot(cells: Sequence[CellStats], title: str, path: Path) -> None:
    """Uncertainty over time: each cell's mean uncertainty in each tenth of the game, one line
    per cell (its players and label), from 1 (anyone may win) down to 0 (settled)."""
    figure, axes = plt.subplots(figsize=(8, 5))
    tenths = [10 * k + 5 for k in range(10)]
    for c in cells:
        if c.uncertainty_curve:
            label = _wrap(f"{c.cell.players}p {c.cell.label}", 50)
            axes.plot(tenths, c.uncertainty_curve, marker="o", markersize=3, label=label)
    axes.set_xlim(0, 100)
    axes.set_ylim(0, 1.02)
    axes.set_xlabel("share of the game's decisions (%), middle of each tenth")
    axes.set_ylabel("uncertainty (entropy of the chances / log players)")
    axes.set_title(_wrap(title, 70))
    axes.legend(fontsize="x-small", loc="lower left")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def tune_plot(answers: Sequence[Answer], spec: TuneSpec, title: str, path: Path) -> None:
    """Each search's looks: the metric at every value tried with its 95% interval, the target
    (with its own interval when measured) and the answer with its interval; one panel per
    player count."""
    figure, panels = plt.subplots(
        1, len(answers), figsize=(5 * len(answers) + 1, 4.4), squeeze=False, layout="constrained"
    )
    for axes, answer in zip(panels[0], answers, strict=True):
        points = [p for p in answer.points if p.value is not None]
        xs = [float(p.value or 0) for p in points]
        axes.errorbar(
            xs,
            [p.mean for p in points],
            yerr=[p.half for p in points],
            fmt="o",
            color="tab:blue",
            capsize=3,
            label=f"{spec.metric} (95% interval)",
        )
        axes.axhline(answer.target, color="tab:red", linestyle="--", label="target")
        if answer.target_half:
            axes.axhspan(
                answer.target - answer.target_half,
                answer.target + answer.target_half,
                color="tab:red",
                alpha=0.12,
                label="target's interval",
            )
        if answer.low <= answer.high:
            axes.axvspan(
                answer.low - 0.5, answer.high + 0.5, color="tab:green", alpha=0.15,
                label="values not ruled out",
            )  # fmt: skip
        axes.axvline(answer.value, color="tab:green", label=f"answer {answer.value:.1f}")
        axes.set_xlabel(spec.parameter)
        axes.set_ylabel(spec.metric)
        axes.set_title(f"{answer.players} players", fontsize="medium")
        axes.legend(fontsize="x-small")
    figure.suptitle(_wrap(title, 70))
    figure.savefig(path, dpi=110)
    plt.close(figure)
