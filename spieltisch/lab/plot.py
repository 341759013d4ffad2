"""Arena plots: win rates with their 95% intervals, and each agent's score distribution."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def arena_plot(summary: dict[str, object], title: str, path: Path) -> None:
    """Write a PNG with win rates (and intervals) beside score distributions."""
    rows = summary["agents"]
    assert isinstance(rows, list)
    names = [str(r["agent"]) for r in rows]
    rates = [float(r["win_rate"]) for r in rows]
    low = [rate - float(r["win_rate_ci95"][0]) for rate, r in zip(rates, rows, strict=True)]
    high = [float(r["win_rate_ci95"][1]) - rate for rate, r in zip(rates, rows, strict=True)]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    left.bar(names, rates, yerr=[low, high], capsize=8, color="tab:blue", alpha=0.8)
    left.axhline(1 / max(len(names), 1), color="grey", linestyle="--", linewidth=1)
    left.set_ylim(0, 1)
    left.set_ylabel("win rate (95% interval)")
    left.set_title("Win rate")
    right.boxplot([r["scores"] for r in rows], tick_labels=names, showmeans=True)
    right.set_ylabel("final score")
    right.set_title("Score distribution")
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
