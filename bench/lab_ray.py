"""Where Ray pays for the lab on this machine: games per second on one local worker, the local
pool of two and Ray with two, for stand-in games that each burn a fixed CPU time.

A real game's cost is its agents'; here each "game" spins for ``ms`` milliseconds of CPU and
returns a result, so the figures show the runners' own costs at every game length. Ray's start
(``ray.init`` of a local cluster) is timed apart: it is paid once a run. Medians of ``--runs``.

Run: RAY_AUTH_MODE=disabled .venv/bin/python bench/lab_ray.py [--runs 3] [--budget 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from spieltisch.lab.engine import GameResult, LocalRunner, PoolRunner, Runner, Task

LENGTHS_MS = (0.2, 1.0, 5.0, 20.0)


def burn(task: Task) -> GameResult:
    """A stand-in game: ``task.seed`` microseconds of CPU, then a result."""
    end = time.process_time() + task.seed / 1e6
    spins = 0
    while time.process_time() < end:
        spins += 1
    return GameResult(task.deal, 0, task.seats, (spins % 2, 0), (1.0, 0.0), 1)


def work(ms: float, budget: float) -> list[tuple[int, Task]]:
    """Enough games of ``ms`` milliseconds for ``budget`` seconds on one worker."""
    games = max(8, round(budget * 1000 / ms))
    micros = round(ms * 1000)
    return [(i, Task("auf-die-eier", 2, (), i, 0, ("x", "x"), micros)) for i in range(games)]


def rate(runner: Runner, tasks: list[tuple[int, Task]]) -> float:
    started = time.perf_counter()
    done = sum(1 for _ in runner.run(burn, tasks))
    return done / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budget", type=float, default=4.0, help="seconds of games per look")
    args = parser.parse_args()
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    import ray  # noqa: PLC0415 - the cluster extra, only here

    from spieltisch.lab.runners.ray_runner import RayRunner  # noqa: PLC0415

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"ray.init of a local cluster: {time.perf_counter() - started:.2f} s")
    runners: dict[str, Runner] = {
        "local, 1 worker": LocalRunner(),
        "local pool, 2": PoolRunner(2),
        "Ray, 2": RayRunner(2),  # joins the cluster started above
    }
    print(f"{'game ms':>8} | " + " | ".join(f"{name:>16}" for name in runners) + " | Ray / pool")
    for ms in LENGTHS_MS:
        tasks = work(ms, args.budget)
        rates = {
            name: statistics.median(rate(r, tasks) for _ in range(args.runs))
            for name, r in runners.items()
        }
        cells = " | ".join(f"{rates[name]:>12.1f} g/s" for name in runners)
        ratio = rates["Ray, 2"] / rates["local pool, 2"]
        print(f"{ms:>8.1f} | {cells} | {ratio:.2f}", flush=True)
    ray.shutdown()


if __name__ == "__main__":
    main()
