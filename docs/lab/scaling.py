"""How fast the lab plays: games per second on 1 and 2 workers, locally and on Ray, for a
quick game and a slow one, and Ray's cost per batch (writes docs/lab/scaling.md).

Ray's cost per batch is measured with the quickest games there are (random agents in Auf die
Eier, about a millisecond each): the same games in batches of one and of 32, on one worker; the
difference in time over the difference in batches is what one more batch costs.

Run: RAY_AUTH_MODE=disabled nice -n 19 .venv/bin/python docs/lab/scaling.py
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import ray

from spieltisch.lab.engine import LocalRunner, PoolRunner, Runner, Task, derive_seed, play_task
from spieltisch.lab.runners.ray_runner import RayRunner

OUT = Path(__file__).with_name("scaling.md")
CASES = (
    ("quick: Auf die Eier, 2 heuristic agents", "auf-die-eier", 2, "heuristic", 3000),
    ("slow: Auf die Nüsse!, 3 heuristic agents", "auf-die-nuesse", 3, "heuristic", 120),
)


def tasks(game: str, players: int, agent: str, games: int, seed: int = 1) -> list[tuple[int, Task]]:
    return [
        (i, Task(game, players, (), i, 0, (agent,) * players, derive_seed(seed, i), keyed=True))
        for i in range(games)
    ]


def timed(runner: Runner, work: list[tuple[int, Task]]) -> float:
    started = time.perf_counter()
    count = sum(1 for _ in runner.run(play_task, work))
    assert count == len(work)
    return time.perf_counter() - started


def main() -> None:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    init_seconds = time.perf_counter() - started
    rows = []
    for label, game, players, agent, games in CASES:
        work = tasks(game, players, agent, games)
        timed(LocalRunner(), work[:5])  # warm the caches of this process
        figures = []
        for name, runner in (
            ("local, 1 worker", LocalRunner()),
            ("local, 2 workers", PoolRunner(2)),
            ("Ray, 1 worker", RayRunner(1)),
            ("Ray, 2 workers", RayRunner(2)),
        ):
            if isinstance(runner, RayRunner):
                timed(runner, work[:32])  # start the workers before timing
            seconds = timed(runner, work)
            figures.append(f"{name}: {games / seconds:.1f}")
        rows.append(f"| {label} | " + " | ".join(f.split(": ")[1] for f in figures) + " |")
    tiny = tasks("auf-die-eier", 2, "random", 400, seed=2)
    one = RayRunner(1, batch=1)
    timed(one, tiny[:20])
    per_game = timed(one, tiny)
    batched = timed(RayRunner(1, batch=32), tiny)
    batches = len(tiny) - -(-len(tiny) // 32)
    overhead_ms = 1000 * (per_game - batched) / batches
    ray.shutdown()
    lines = [
        "# The lab's speed",
        "",
        "Measured on this machine (2 shared CPU cores, other work running; nice 19) by "
        "`docs/lab/scaling.py`. Games per second:",
        "",
        "| games | local, 1 worker | local, 2 workers | Ray, 1 worker | Ray, 2 workers |",
        "|---|---:|---:|---:|---:|",
        *rows,
        "",
        f"Ray: `ray.init` of a local cluster took {init_seconds:.1f} s; one more batch costs "
        f"about {overhead_ms:.2f} ms ({len(tiny)} one-millisecond games in batches of 1 took "
        f"{per_game:.2f} s, in batches of 32 {batched:.2f} s). With the default batch of 32 "
        "games that is well under a millisecond per game even for the quickest games.",
        "",
    ]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(OUT.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
