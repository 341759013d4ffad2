"""Arena throughput: games per second with one worker process and with two.

    python bench/arena.py [--game auf-die-eier] [--agents heuristic,random] [--games 200]

Prints the median of ``--runs`` timings for each worker count and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time

import spieltisch
from spieltisch.lab import arena


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="auf-die-eier")
    parser.add_argument("--agents", default="heuristic,random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    game = spieltisch.load(args.game, 2)
    tasks = arena.schedule(game, args.agents.split(","), args.games, seed=0)
    rates = {}
    for workers in (1, 2):
        timings = []
        for _ in range(args.runs):
            start = time.perf_counter()
            arena.run(tasks, workers)
            timings.append(time.perf_counter() - start)
        rates[workers] = len(tasks) / statistics.median(timings)
        print(f"{args.game} {args.agents}: {workers} worker(s): {rates[workers]:,.1f} games/s")
    print(f"speed-up with 2 workers: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
