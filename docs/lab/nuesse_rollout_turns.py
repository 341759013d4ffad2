"""Auf die Nüsse! with three and four players: does the rollout agent gain from futures that run
through its own next turn, as it did with two? (writes docs/lab/nuesse-rollout-turns.md)

Each player count has four studies on the same deals (the lab's seed 50, seats rotated, one
rollout seat among heuristics): the shipped ``rollout`` (64 futures to the start of the turn
after next), ``rollout:256`` (more futures, the same end), and 256 futures to the start of the
agent's own next turn (``rollout:256/3`` with three players, ``/4`` with four) and through it
(``/4``, ``/5``). The table gives each agent's head-to-head share against the heuristics and its
gain over the shipped agent, paired by deal (a deal's seatings averaged; the intervals
resample the deals), with the lab's own metric (:func:`spieltisch.lab.metrics.head_to_head`)
and paired statistics (:func:`spieltisch.lab.stats.paired_difference`).

Play the studies (resumable; about an hour on two cores, native engine), then run this:
    for f in docs/lab/nuesse-rollout-[34]p-*.toml; do
        .venv/bin/spieltisch lab run "$f" --workers 2 --engine native; done
    .venv/bin/python docs/lab/nuesse_rollout_turns.py
"""

from __future__ import annotations

import random
from pathlib import Path
from statistics import fmean

from spieltisch.lab.metrics import head_to_head
from spieltisch.lab.report import read_folder
from spieltisch.lab.stats import bootstrap_mean, paired_difference

LAB = Path(__file__).parent
OUT = LAB / "nuesse-rollout-turns.md"
BASELINE = "64"
STUDIES = {
    3: (BASELINE, "256", "256-turn3", "256-turn4"),
    4: (BASELINE, "256", "256-turn4", "256-turn5"),
}
"""For each player count, the folders' suffixes (``nuesse-rollout-{n}p-{suffix}``)."""

Shares = dict[int, list[float]]


def shares(folder: Path) -> tuple[str, Shares]:
    """The study's rollout agent and its head-to-head share in each game, by deal (one value
    per rotation played)."""
    experiment, cells = read_folder(folder)
    agent = experiment.agents[0]
    measure = head_to_head(agent, "heuristic")
    out: Shares = {}
    for cell in cells:
        for result in cell.played:
            value = measure(result)
            if value is not None:
                out.setdefault(result.deal, []).append(value)
    return agent, out


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def rows(players: int) -> list[str]:
    """The table rows of one player count."""
    found = [shares(LAB / f"nuesse-rollout-{players}p-{suffix}") for suffix in STUDIES[players]]
    _, base = found[0]
    lines = []
    for index, (agent, values) in enumerate(found):
        share, low, high = bootstrap_mean([fmean(v) for v in values.values()], random.Random(0))
        gain = "(the baseline)"
        if index > 0:
            # a deal counts where both played all its rotations: the same games, seat for seat
            shared = [k for k in sorted(values) if len(values[k]) == len(base.get(k, []))]
            d = paired_difference(
                [fmean(values[k]) - fmean(base[k]) for k in shared], random.Random(0)
            )
            gain = (
                f"{100 * d.mean:+.1f} points ({100 * d.low:+.1f} to {100 * d.high:+.1f}), "
                f"{d.pairs} deals"
            )
        games = sum(len(v) for v in values.values())
        lines.append(
            f"| {players} | `{agent}` | {games} | {percent(share)} "
            f"({percent(low)} to {percent(high)}) | {gain} |"
        )
    return lines


def main() -> None:
    table = [
        "| players | agent | games | ahead of a heuristic (95%) | against `rollout`, "
        "same deals (95%) |",
        "|---|---|---:|---|---|",
    ]
    for players in STUDIES:
        table += rows(players)
    text = (
        "# Auf die Nüsse!: the rollout agent's futures at three and four players\n\n"
        "Written by `docs/lab/nuesse_rollout_turns.py` from the studies "
        "`nuesse-rollout-{3,4}p-*` (seed 50, native engine, one rollout seat among heuristics,"
        ' seats rotated). "Ahead of a heuristic" is the share of meetings the agent finished'
        " ahead of a heuristic seat (the lab's head-to-head metric); the gain is paired by deal"
        " (all of a deal's seatings) against the shipped `rollout`; the intervals resample the"
        " deals.\n\n" + "\n".join(table) + "\n"
    )
    OUT.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
