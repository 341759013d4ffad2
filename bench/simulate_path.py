"""The simulate path against the raw playout rate, and the arena with one worker and two.

    python bench/simulate_path.py [--parts simulate,arena] [--windows 5] [--seconds 1.0]
        [--games 400] [--players 2] [GAME_ID ...]

``simulate``: in one process, interleaved windows of CPU time, each game's raw playout rate
(a bare loop over the rules: apply a random legal action, sample chance; actions per CPU
second, chance included) and the rate of the simulate path with random agents (the lab's
``simulate`` as ``spieltisch simulate`` runs it, once keeping records as the command does and
once without); it prints the medians and the median of the per-window ratios path / raw.

``arena``: ``--games`` arena games (``--agents``, seats rotated) with one worker and with two,
each in a fresh interpreter, in turn; it prints wall time, the parent's CPU per game and the
workers' CPU per game (process CPU times, the workers reaped before they are read), and the
speed-up a quiet two-core machine would give: one worker's CPU / ((parent + workers) / 2).
Figures only: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from loops import random_game  # bench/loops.py (the script's own folder is on the path)

import spieltisch
from spieltisch.core.game import Game
from spieltisch.lab.simulate import simulate

HERE = Path(__file__).resolve().parent.parent
GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")


def raw(game: Game, seconds: float, seed: int) -> float:
    """Actions per CPU second of the bare loop over the rules (chance included)."""
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        moves += random_game(game, rng)
    return moves / (time.process_time() - start)


def path(game: Game, seconds: float, seed: int, *, records: bool) -> float:
    """Actions per CPU second of the simulate path with random agents (chance included)."""
    agents = ["random"] * game.players

    def keep(index: int, record: object) -> None:
        del index, record

    moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        summary = simulate(game, agents, 50, seed, on_record=keep if records else None)
        moves += summary.moves
        seed += 1
    return moves / (time.process_time() - start)


def simulate_part(ids: list[str], players: int, windows: int, seconds: float) -> None:
    """Print the simulate path against the raw rate, per game."""
    print(f"{'game':16} {'raw act/s':>10} {'path act/s':>11} {'path/raw':>9} {'no-rec/raw':>11}")
    for game_id in ids:
        game = spieltisch.load(game_id, players)
        raw(game, 0.2, 0)
        path(game, 0.2, 0, records=True)
        rows = []
        for window in range(windows):
            rows.append(
                (
                    raw(game, seconds, window),
                    path(game, seconds, 1000 * window, records=True),
                    path(game, seconds, 1000 * window + 500, records=False),
                )
            )
        bare = statistics.median(r[0] for r in rows)
        kept = statistics.median(r[1] for r in rows)
        share = statistics.median(r[1] / r[0] for r in rows)
        share_plain = statistics.median(r[2] / r[0] for r in rows)
        print(f"{game_id:16} {bare:>10,.0f} {kept:>11,.0f} {share:>9.3f} {share_plain:>11.3f}")
    print(
        "actions per CPU second, chance included; medians of interleaved windows; path/raw with "
        "records kept (as the command runs), no-rec/raw without."
    )


ARENA = r"""
import json, multiprocessing, resource, sys, time
import spieltisch
from spieltisch.lab import arena

game_id, players, agents, games, workers = sys.argv[1:6]
game = spieltisch.load(game_id, int(players))
tasks = arena.schedule(game, agents.split(","), int(games), seed=0)
arena.run(tasks[:2], 1)
self0 = resource.getrusage(resource.RUSAGE_SELF)
kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
wall0 = time.perf_counter()
arena.run(tasks, int(workers))
wall = time.perf_counter() - wall0
self1 = resource.getrusage(resource.RUSAGE_SELF)
for child in multiprocessing.active_children():
    child.join()
kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = lambda a, b: (b.ru_utime - a.ru_utime) + (b.ru_stime - a.ru_stime)
print(json.dumps({"games": len(tasks), "wall": wall, "parent": cpu(self0, self1),
                  "workers": cpu(kids0, kids1)}))
"""


def arena_window(
    game_id: str, players: int, agents: str, games: int, workers: int
) -> dict[str, float]:
    """One arena run in a fresh interpreter: wall seconds and CPU seconds of parent and workers."""
    command = [sys.executable, "-c", ARENA, game_id, str(players), agents, str(games), str(workers)]
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=HERE)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def arena_part(ids: list[str], players: int, agents: str, games: int, windows: int) -> None:
    """Print the arena with one worker and two, per game."""
    print(
        f"{'game':16} {'w':>2} {'wall s':>7} {'games/s':>8} {'parent us/g':>12} "
        f"{'workers us/g':>13} {'wall x':>7} {'cpu x':>6}"
    )
    for game_id in ids:
        runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
        for _ in range(windows):
            for workers in (1, 2):
                runs[workers].append(arena_window(game_id, players, agents, games, workers))
        one = runs[1]
        for workers in (1, 2):
            rows = runs[workers]
            count = rows[0]["games"]
            wall = statistics.median(r["wall"] for r in rows)
            parent = statistics.median(r["parent"] for r in rows) / count * 1e6
            kids = statistics.median(r["workers"] for r in rows) / count * 1e6
            wall_x = statistics.median(
                a["wall"] / b["wall"] for a, b in zip(one, rows, strict=True)
            )
            cpu_x = statistics.median(
                2 * a["parent"] / (b["parent"] + b["workers"])
                for a, b in zip(one, rows, strict=True)
            )
            print(
                f"{game_id:16} {workers:>2} {wall:>7.2f} {count / wall:>8.1f} {parent:>12,.0f} "
                f"{kids:>13,.0f} {wall_x:>7.2f} {cpu_x:>6.2f}"
            )
    print(
        "medians of runs in turn; us/g = CPU microseconds per game; wall x = one worker's wall / "
        "this one's; cpu x = one worker's CPU / ((parent + workers) CPU / 2), the speed-up a quiet "
        "two-core machine would give."
    )


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all four)")
    parser.add_argument("--parts", default="simulate,arena")
    parser.add_argument("--windows", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", default="random", help="the arena's agents")
    parser.add_argument("--arena-games", type=int, default=400)
    parser.add_argument("--arena-windows", type=int, default=3)
    args = parser.parse_args()
    ids = args.games or list(GAMES)
    parts = args.parts.split(",")
    if "simulate" in parts:
        simulate_part(ids, args.players, args.windows, args.seconds)
    if "arena" in parts:
        arena_part(ids, args.players, args.agents, args.arena_games, args.arena_windows)


if __name__ == "__main__":
    main()
