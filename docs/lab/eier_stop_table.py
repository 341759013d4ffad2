"""Auf die Eier: when to stop, from the exact expert (writes docs/lab/eier-stop-table.md).

For every Chicken need (the number at the top of the player's ladder, or none once the ladder
is used up) this walks a turn played by the expert exactly: every outcome of every throw with
its probability. Positions are grouped by the throws made and the dice still free to throw
(the dice not showing a Rotten Egg, which stays aside); for each group it gives the expected
points of the turn from there, playing best, and how often the best play is to stop.

Run: nice -n 19 .venv/bin/python docs/lab/eier_stop_table.py
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from spieltisch.core.chance import Counts
from spieltisch.games.auf_die_eier.bots.expert import (
    _plus,
    _throws,
    best_choice,
    decision_value,
    turn_value,
)
from spieltisch.games.auf_die_eier.notation import NUM_DICE, Face, Reroll

NEEDS: tuple[int | None, ...] = (1, 2, 3, 4, 5, None)
OUT = Path(__file__).with_name("eier-stop-table.md")


def walk(need: int | None) -> dict[tuple[int, int], list[float]]:
    """Per (throws made, free dice): [reach probability, prob. of stopping, prob. x value]."""
    groups: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    frontier: dict[Counts, float] = dict(_throws(NUM_DICE))
    for rolls in (1, 2):
        following: dict[Counts, float] = defaultdict(float)
        for dice, p in frontier.items():
            free = NUM_DICE - dice[Face.ROTTEN]
            group = groups[(rolls, free)]
            group[0] += p
            group[2] += p * decision_value(rolls, dice, need)
            if free == 0:
                group[1] += p
                continue
            action, _ = best_choice(rolls, dice, need)
            if not isinstance(action, Reroll):
                group[1] += p
                continue
            kept = tuple(n - k for n, k in zip(dice, action.dice, strict=True))
            for outcome, q in _throws(sum(action.dice)):
                following[_plus(kept, outcome)] += p * q
        frontier = following
    return groups


def main() -> None:
    lines = [
        "# Auf die Eier: when to stop (exact expert)",
        "",
        "Expected points of a whole turn played best, by the Chickens the ladder asks for:",
        "",
        "| Chickens needed | " + " | ".join(str(n or "none") for n in NEEDS) + " |",
        "|---|" + "---:|" * len(NEEDS),
        "| points per turn | " + " | ".join(f"{turn_value(n):.2f}" for n in NEEDS) + " |",
        "",
    ]
    walks = {need: walk(need) for need in NEEDS}
    for rolls in (1, 2):
        lines += [
            f"After throw {rolls}: each cell is the expected points of the turn from there "
            "(playing best) and, in brackets, how often stopping is the best play; columns are "
            "the dice still free to throw (not Rotten Eggs); a dash: the position is never "
            "reached, or less than once in a thousand turns.",
            "",
            "| Chickens needed | " + " | ".join(str(f) for f in range(NUM_DICE, -1, -1)) + " |",
            "|---|" + "---:|" * (NUM_DICE + 1),
        ]
        for need in NEEDS:
            cells = []
            for free in range(NUM_DICE, -1, -1):
                reach, stops, value = walks[need].get((rolls, free), [0.0, 0.0, 0.0])
                if reach < 1e-3:
                    cells.append("-")
                else:
                    cells.append(f"{value / reach:.1f} ({100 * stops / reach:.0f}%)")
            lines.append(f"| {need or 'none'} | " + " | ".join(cells) + " |")
        lines.append("")
    reached = {need: sum(v[0] for (r, _), v in walks[need].items() if r == 2) for need in NEEDS}
    lines += [
        "Share of turns with a second throw: "
        + ", ".join(f"{reached[n]:.0%} with need {n or 'none'}" for n in NEEDS)
        + ".",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(OUT.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
