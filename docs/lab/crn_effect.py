"""What keyed chance buys: the spread of paired differences with keyed chance, with one running
stream per table, and with unpaired deals (writes docs/lab/crn-effect.md).

The comparison is Auf die Eier's shared chicken ladder against one ladder each, 4 heuristic
players, 400 deals: the same deal seeds in both variants, played with keyed chance (what
experiments do), with the table's running stream (the same seed, but every later draw shifts
once a variant consumes chance differently), and with independent seeds (no pairing at all).
A smaller spread means a tighter interval from the same number of games.

Run: nice -n 19 .venv/bin/python docs/lab/crn_effect.py
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from spieltisch.lab.engine import GameResult, Task, derive_seed, play_task

OUT = Path(__file__).with_name("crn-effect.md")
DEALS = 400
PLAYERS = 4


def play(shared: bool, keyed: bool, seed: int) -> GameResult:
    options = (("shared_chicken_ladder", shared),)
    seats = ("heuristic",) * PLAYERS
    return play_task(Task("auf-die-eier", PLAYERS, options, 0, 0, seats, seed, keyed=keyed))


def spread(keyed: bool, paired: bool) -> tuple[float, float]:
    """The standard deviation of the per-deal differences in score and in decisions."""
    scores, lengths = [], []
    for deal in range(DEALS):
        seed = derive_seed(1, "deal", deal)
        other = seed if paired else derive_seed(2, "deal", deal)
        a, b = play(False, keyed, seed), play(True, keyed, other)
        scores.append(sum(b.scores) / PLAYERS - sum(a.scores) / PLAYERS)
        lengths.append(b.actions - a.actions)
    return statistics.stdev(scores), statistics.stdev(lengths)


def main() -> None:
    rows = {
        "keyed chance, same deals": spread(True, True),
        "running stream, same seeds": spread(False, True),
        "independent deals": spread(True, False),
    }
    base = rows["independent deals"]
    lines = [
        "# What keyed chance buys",
        "",
        f"Auf die Eier, {PLAYERS} heuristic players, shared chicken ladder against one ladder "
        f"each, {DEALS} deals (`docs/lab/crn_effect.py`). Spread (standard deviation) of the "
        "per-deal difference, and the games the same precision needs, relative to "
        "independent deals:",
        "",
        "| pairing | spread of score difference | games needed | "
        "spread of decisions difference | games needed |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, (score, length) in rows.items():
        lines.append(
            f"| {name} | {score:.2f} | {(score / base[0]) ** 2:.0%} | {length:.2f} | "
            f"{(length / base[1]) ** 2:.0%} |"
        )
    lines += [
        "",
        f"(The needed games scale with the spread squared; ±1 point of score from {DEALS} "
        f"deals needs a spread under {math.sqrt(DEALS) / 1.96:.1f}.)",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(OUT.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
