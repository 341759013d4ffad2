"""ISMCTS iterations per CPU-second: the native search against the pure-Python one, and
OpenSpiel's C++ ISMCTSBot on hearts in the same process.

    python bench/search.py [--runs 5] [--python-iterations 1000] [--native-iterations 20000]
        [--sims 1000] [--game auf-die-eier] [--no-openspiel]

The positions are a mid-game decision of a seeded random game (2 and 4 players): the same
view for both searches. Each round times every item once (CPU time of this process, so a
search on two threads counts both), the items in turn; each figure is the median over the
rounds, and each ratio is worked out within a round, then the median taken. An early stop
(the choice settled) ends a search before its budget: the rate counts the iterations run.
OpenSpiel's bot (``open_spiel`` installed) searches hearts with random rollouts and UCT
constant 2, as ``../shared/bench/side_by_side.py`` sets it up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from ismcts import positions  # bench/ismcts.py (the script's own folder is on the path)

import spieltisch
from spieltisch.agents import IsmctsAgent

Timed = Callable[[], int]
"""One search: returns the iterations it ran."""


def spieltisch_search(
    game_id: str, players: int, iterations: int, native: bool, threads: int = 1
) -> Timed:
    """A search of the mid-game position by :class:`IsmctsAgent`, native or in Python."""
    game = spieltisch.load(game_id, players)
    state = positions(game, seed=3)[1]  # the mid-game one
    view, legal = state.view(state.current_player()), state.legal_actions()
    agent = IsmctsAgent(game, 1, iterations=iterations, native=native, threads=threads)

    def once() -> int:
        return agent.search(view, legal).iterations

    return once


def openspiel_search(sims: int, seed: int = 1234) -> Timed:
    """OpenSpiel's C++ ISMCTSBot at a mid-game decision of hearts (random rollouts)."""
    import pyspiel  # type: ignore[import-not-found]  # noqa: PLC0415 - optional

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            decisions.append(state.clone())
        state.apply_action(rng.choice(legal))
    position = decisions[len(decisions) // 2]
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    final = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
    bot = pyspiel.ISMCTSBot(seed, evaluator, 2.0, sims, -1, final, False, False)

    def once() -> int:
        bot.step(position)
        return sims

    return once


def rate(search: Timed) -> tuple[float, float]:
    """(iterations per CPU-second, per wall-second) of one search."""
    cpu, wall = time.process_time(), time.perf_counter()
    iterations = search()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return iterations / max(cpu, 1e-9), iterations / max(wall, 1e-9)


def main() -> None:
    """Time every item in rounds and print the medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="auf-die-eier")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--python-iterations", type=int, default=1000)
    parser.add_argument("--native-iterations", type=int, default=20_000)
    parser.add_argument("--sims", type=int, default=1000, help="OpenSpiel's simulations")
    parser.add_argument("--no-openspiel", action="store_true")
    args = parser.parse_args()
    items: dict[str, Timed] = {}
    info = spieltisch.load(args.game).info
    counts = [n for n in (2, 4) if info.min_players <= n <= info.max_players]
    for players in counts:
        tag = f"{args.game} {players}p"
        items[f"python {tag}"] = spieltisch_search(
            args.game, players, args.python_iterations, native=False
        )
        items[f"native {tag}"] = spieltisch_search(
            args.game, players, args.native_iterations, native=True
        )
    items[f"native {args.game} 2p, 2 threads"] = spieltisch_search(
        args.game, 2, args.native_iterations, native=True, threads=2
    )
    if not args.no_openspiel:
        items["openspiel C++ ISMCTSBot hearts"] = openspiel_search(args.sims)
    for search in items.values():  # warm-up: imports, tables, caches
        search()
    rounds: list[dict[str, tuple[float, float]]] = []
    for run in range(args.runs):
        names = list(items)
        names = names[run % len(names) :] + names[: run % len(names)]
        rounds.append({name: rate(items[name]) for name in names})
    print(f"{'search':42} {'it/CPU-s':>12} {'it/wall-s':>12}")
    for name in items:
        cpu = statistics.median(r[name][0] for r in rounds)
        wall = statistics.median(r[name][1] for r in rounds)
        print(f"{name:42} {cpu:>12,.0f} {wall:>12,.0f}")
    print("\nratios (CPU time, median of the per-round ratios)")
    for players in counts:
        tag = f"{args.game} {players}p"
        ratio = statistics.median(r[f"native {tag}"][0] / r[f"python {tag}"][0] for r in rounds)
        print(f"  native / python, {tag}: {ratio:,.1f}x")
        if not args.no_openspiel:
            os_name = "openspiel C++ ISMCTSBot hearts"
            native = statistics.median(r[f"native {tag}"][0] / r[os_name][0] for r in rounds)
            python = statistics.median(r[f"python {tag}"][0] / r[os_name][0] for r in rounds)
            print(f"  native {tag} / OpenSpiel hearts: {native:.2f}x")
            print(f"  python {tag} / OpenSpiel hearts: {python:.3f}x")


if __name__ == "__main__":
    main()
