"""Random-playout throughput of every implemented game: the engine's own loop and a table.

Prints games/s and actions/s (chance steps included) of the engine's raw loop (what OpenSpiel's
engines are compared with), the actions/s of the same random games played at a
:class:`~spieltisch.session.Table` (what every surface pays), each as the median of several
timed runs, and the engine's figure relative to a fixed pure-Python reference loop timed in the
same process, so that numbers from a busy shared machine can still be compared. Run on one core:

    python bench/playouts.py [--seconds 2] [--runs 5] [GAME_ID ...]

``--smoke`` runs every part once, briefly (CI runs it in an installed build: the figures mean
nothing there, but every path is taken).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from loops import random_game  # bench/loops.py (the script's own folder is on the path)

import spieltisch
from spieltisch.agents import RandomAgent
from spieltisch.core.game import Game
from spieltisch.games import REGISTRY
from spieltisch.session import Table, play_out


def playouts(game: Game, seconds: float, seed: int) -> tuple[float, float]:
    """Play random games for about ``seconds``; return (games/s, moves/s)."""
    rng = random.Random(seed)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        moves += random_game(game, rng)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, moves / elapsed


def table_playouts(game: Game, seconds: float, seed: int) -> float:
    """Play random games at tables for about ``seconds``; return moves/s."""
    chooser = RandomAgent(game, seed)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        table = Table(game, seed=seed + games)
        play_out(table, [chooser] * game.players)
        moves += table.version
        games += 1
    return moves / (time.perf_counter() - start)


def reference(seconds: float) -> float:
    """Iterations/s of a fixed pure-Python loop: the yardstick for this machine right now."""
    rng = random.Random(0)
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            values = (rng.randrange(6), rng.randrange(6))
            count += values[0] + values[1] >= 0
    return count / (time.perf_counter() - start)


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every implemented game)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per game (median)")
    parser.add_argument("--players", type=int, default=None, help="player count")
    parser.add_argument("--smoke", action="store_true", help="every part once, briefly")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.runs = 0.05, 1
    ids = args.games or list(REGISTRY.implemented())
    header = (
        f"{'game':16} {'players':>7} {'games/s':>10} {'actions/s':>11} {'vs ref':>7} "
        f"{'table act/s':>12}"
    )
    print(header)
    for game_id in ids:
        game = spieltisch.load(game_id, args.players)
        playouts(game, 0.05 if args.smoke else 0.3, 99)  # warm caches
        rates, refs, tables = [], [], []
        for run in range(args.runs):
            refs.append(reference(args.seconds if args.smoke else 0.3))
            rates.append(playouts(game, args.seconds, run))
            tables.append(table_playouts(game, args.seconds, run))
        games_s = statistics.median(r[0] for r in rates)
        moves_s = statistics.median(r[1] for r in rates)
        ratio = statistics.median(r[1] / ref for r, ref in zip(rates, refs, strict=True))
        table_s = statistics.median(tables)
        print(
            f"{game_id:16} {game.players:>7} {games_s:>10.1f} {moves_s:>11,.0f} {ratio:>7.3f} "
            f"{table_s:>12,.0f}"
        )
    print(
        "actions/s counts player actions and chance steps; 'vs ref' = actions per reference "
        "iteration, measured in the same process; 'table act/s' = the same random games at a "
        "session table."
    )


if __name__ == "__main__":
    main()
