"""Equal strength at equal iterations: the native ISMCTS against the pure-Python one.

    python bench/search_strength.py [--game auf-die-eier] [--players 2] [--iterations 200]
        [--games 400] [--seed 1] [--workers 1]

Each game seats one native searcher (``IsmctsAgent(native=True)``) and pure-Python searchers
(``native=False``) in the other seats, all with the same iteration budget; the native seat
moves round the table from game to game. It prints the native seat's share of the wins (a
shared win counts its share) with a 95% Wilson interval, beside the share equal strength
gives (one in the number of players), every 50 games and at the end. Needs the native core
(``SPIELTISCH_NATIVE_LIB`` or an installed build) and a game it can search.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Iterator

import spieltisch
from spieltisch.agents import IsmctsAgent
from spieltisch.lab.play import play_game
from spieltisch.lab.stats import wilson_interval


def one_game(job: tuple[str, int, int, int, int]) -> float:
    """The native seat's return in game ``index`` (seeded from ``seed`` and the index)."""
    game_id, players, iterations, seed, index = job
    game = spieltisch.load(game_id, players)
    native_seat = index % players
    agents = [
        IsmctsAgent(game, seed * 100_003 + index * 7 + seat, iterations=iterations,
                    native=seat == native_seat)
        for seat in range(players)
    ]  # fmt: skip
    played = play_game(game, agents, seed * 1_000_003 + index)
    return float(played.state.returns()[native_seat])


def results(args: argparse.Namespace) -> Iterator[float]:
    """Each game's native return, in order, on ``args.workers`` processes."""
    jobs = [(args.game, args.players, args.iterations, args.seed, i) for i in range(args.games)]
    if args.workers <= 1:
        yield from map(one_game, jobs)
        return
    with multiprocessing.Pool(args.workers) as pool:
        yield from pool.imap(one_game, jobs)


def report(returns: list[float], players: int, seconds: float) -> str:
    """One line: games, the native share with its interval, the equal-strength share."""
    won = sum(returns)
    low, high = wilson_interval(won, len(returns))
    return (
        f"{len(returns):5d} games  native share {won / len(returns):.3f} "
        f"[95% {low:.3f}, {high:.3f}]  equal strength {1 / players:.3f}  ({seconds:.0f}s)"
    )


def main() -> None:
    """Play the games and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="auf-die-eier")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{args.game}, {args.players} players, native vs Python ISMCTS at "
        f"{args.iterations} iterations",
        flush=True,
    )
    start = time.perf_counter()
    returns: list[float] = []
    for value in results(args):
        returns.append(value)
        if len(returns) % 50 == 0 or len(returns) == args.games:
            print(report(returns, args.players, time.perf_counter() - start), flush=True)


if __name__ == "__main__":
    main()
