"""The native batch's steps a second, as multiples of PettingZoo's Leduc Hold'em loop.

    python bench/batch.py [--rounds 5] [--window 1.0] [--batch 256] [--threads 1,2]

Each round measures, in this process: PettingZoo's own ``performance_benchmark`` loop over
``leduc_holdem_v4`` (one core, CPU time; needs ``rlcard`` and ``pygame``), then for every case
the native :class:`~spieltisch.rl.batch.BatchedGames` of ``--batch`` games:

* ``random``: ``batch.step(batch.random_actions())``, the random agent drawn inside Rust;
  one thread in CPU time, more threads in wall time (CPU time adds up over threads), and
  their speed-up over one thread in wall time, measured back to back (on a loaded machine
  wall time says little), and their steps per CPU second (all threads') as a share of one
  thread's: what is left of the work when it is split (near 1: it scales on free cores);
* ``numpy``: each game's random legal id chosen in numpy from the mask (random keys times
  the mask, the row's largest), as a Python policy would pick from the arrays (one thread,
  CPU time; the choice is timed too);
* the Python engine's batch (``native=False``) with the same numpy choice, for scale.

A step is one decision of one game (chance and autoresets inside it), as the Leduc loop counts
one agent's turn. Every ratio is taken within its round; the table gives medians over rounds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from envs import CLASSIC, benchmark_rate  # bench/envs.py (the script's own folder is on the path)

from spieltisch.rl.batch import BatchedGames

CASES = (
    ("auf-die-eier", 2),
    ("auf-die-eier", 4),
    ("auf-die-nuesse", 2),
    ("auweier", 2),
    ("auweier", 4),
    ("awimbawe", 2),
)


def random_rate(batch: BatchedGames, window: float, clock: Callable[[], float]) -> float:
    """Steps a second of ``step(random_actions())`` on ``clock``."""
    batch.reset(0)
    steps = 0
    start = clock()
    while clock() - start < window:
        for _ in range(10):
            batch.step(batch.random_actions())
        steps += 10 * batch.num_envs
    return steps / (clock() - start)


def numpy_rate(batch: BatchedGames, window: float) -> float:
    """Steps a CPU second with each game's action chosen in numpy from the mask."""
    batch.reset(0)
    rng = np.random.default_rng(0)
    mask = batch.action_mask
    steps = 0
    start = time.process_time()
    while time.process_time() - start < window:
        keys = rng.random(mask.shape, dtype=np.float32)
        keys *= mask
        batch.step(keys.argmax(axis=1))
        steps += batch.num_envs
    return steps / (time.process_time() - start)


def leduc_rate(window: float) -> float:
    """PettingZoo's Leduc loop, player turns a CPU second."""
    if not CLASSIC:
        raise SystemExit("PettingZoo's Leduc needs rlcard and pygame (pettingzoo[classic])")
    return benchmark_rate(CLASSIC[0][1], window)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--window", type=float, default=1.0, help="seconds a measurement")
    parser.add_argument("--batch", type=int, default=256, help="games a batch")
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",") if int(t) > 1]
    columns = ["random, 1 thread"] + [f"random, {t} threads (wall)" for t in threads]
    columns += ["numpy", "Python"]
    rates: dict[tuple[str, str], list[float]] = {}
    ratios: dict[tuple[str, str], list[float]] = {}
    speedups: dict[tuple[str, int], list[float]] = {}
    shares: dict[tuple[str, int], list[float]] = {}
    leduc: list[float] = []
    for _ in range(args.rounds):
        reference = leduc_rate(args.window)
        leduc.append(reference)
        for game_id, players in CASES:
            name = f"{game_id}, {players} players"
            one = BatchedGames(game_id, args.batch, players, native=True)
            found = [random_rate(one, args.window, time.process_time)]
            alone = random_rate(one, args.window, time.perf_counter)
            for count in threads:
                batch = BatchedGames(game_id, args.batch, players, native=True, threads=count)
                found.append(random_rate(batch, args.window, time.perf_counter))
                speedups.setdefault((name, count), []).append(found[-1] / alone)
                spent = random_rate(batch, args.window, time.process_time)
                shares.setdefault((name, count), []).append(spent / found[0])
            found.append(numpy_rate(one, args.window))
            slow = BatchedGames(game_id, min(args.batch, 64), players, native=False)
            found.append(numpy_rate(slow, args.window))
            for column, rate in zip(columns, found, strict=True):
                rates.setdefault((name, column), []).append(rate)
                ratios.setdefault((name, column), []).append(rate / reference)
    print(f"PettingZoo leduc_holdem_v4: {statistics.median(leduc):,.0f} turns a CPU second")
    print(f"{args.batch} games a batch; steps a second (x Leduc); medians of {args.rounds} rounds")
    heads = columns + [f"{t} threads / 1, wall" for t in threads]
    heads += [f"{t} threads / 1, per CPU second" for t in threads]
    print("| game | " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * len(heads))
    for game_id, players in CASES:
        name = f"{game_id}, {players} players"
        cells = []
        for column in columns:
            rate, ratio = (statistics.median(found[name, column]) for found in (rates, ratios))
            cells.append(f"{rate / 1e6:.2f}M ({ratio:.0f}x)")
        cells += [f"{statistics.median(speedups[name, t]):.2f}" for t in threads]
        cells += [f"{statistics.median(shares[name, t]):.2f}" for t in threads]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
