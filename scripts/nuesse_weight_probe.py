"""Auf die Nüsse!: does the heuristic play better with some of its weights changed?

Plays the heuristic with the given ``bots.Weights`` changed against the default heuristic in
the arena (2 players, seats rotated on shared deals, one process) and prints the changed
player's win rate with its 95% interval and mean margin. This is the probe behind the weight
figures in docs/results.md.

Usage: .venv/bin/python scripts/nuesse_weight_probe.py NAME=VALUE[,NAME=VALUE...] [GAMES] [SEED]
(400 games and seed 7 by default; about half a minute per 400 games.)
e.g.   .venv/bin/python scripts/nuesse_weight_probe.py boldness=0.9
"""

from __future__ import annotations

import dataclasses
import sys

import spieltisch
from spieltisch.games.auf_die_nuesse import bots
from spieltisch.lab import arena

GAME = "auf-die-nuesse"
CHANGED = "changed"
DEFAULTS = ["400", "7"]
"""Games and seed, unless given."""


def weights(changes: str) -> bots.Weights:
    """The default weights with ``NAME=VALUE`` changes (comma-separated)."""
    default = bots.Weights()
    values: dict[str, float | int] = {}
    for change in changes.split(","):
        name, _, value = change.partition("=")
        values[name] = type(getattr(default, name))(float(value))
    return dataclasses.replace(default, **values)  # type: ignore[arg-type]


def main() -> None:
    """Register the changed heuristic, play it against the default, print the figures."""
    changes, *rest = sys.argv[1:]
    games, seed = (int(n) for n in (rest + DEFAULTS[len(rest) :])[: len(DEFAULTS)])
    fields = {"name": CHANGED, "weights": weights(changes)}
    bots.AGENTS[CHANGED] = type("Changed", (bots.HeuristicAgent,), fields)
    lineup = [CHANGED, "heuristic"]
    tasks = arena.schedule(spieltisch.load(GAME, 2), lineup, games, seed)
    summary = arena.summarise(arena.run(tasks, workers=1), lineup)
    figures = summary.row(CHANGED)
    low, high = figures.win_rate_ci95
    print(f"{changes} ({games} games, seed {seed}): wins {100 * figures.win_rate:.1f}% ", end="")
    print(f"({100 * low:.1f}-{100 * high:.1f}), margin {figures.mean_margin:+.2f}")


if __name__ == "__main__":
    main()
