"""ISMCTS iterations per second for every game with a belief sampler, at the first decision
and mid-game, and how closely a timed search keeps to its budget.

    python bench/ismcts.py [--seconds 1] [--runs 3] [--players 2] [--smoke] [GAME_ID ...]

Each figure is the median over the runs; 'budget' is the median time a search with a
``--seconds`` budget took, as a fraction of that budget. ``--smoke`` searches once per
position, briefly (CI runs it in an installed build: every path taken, no figure to read).
"""

from __future__ import annotations

import argparse
import random
import statistics

import spieltisch
from spieltisch.agents import IsmctsAgent, agent_names, game_book
from spieltisch.core.game import Game, State
from spieltisch.games import REGISTRY


def positions(game: Game, seed: int) -> tuple[State, State]:
    """The first decision search thinks about (a real choice, not a book move), and one about
    half way through a random game."""
    rng = random.Random(seed)
    book = game_book(game)
    state, decisions = game.initial_state(), []
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        set_move = book(state.view(state.current_player()), legal, rng) if book else None
        if len(legal) > 1 and set_move is None:
            decisions.append(state)
        state = state.apply(legal[rng.randrange(len(legal))])
    return decisions[0], decisions[len(decisions) // 2]


def rate(game: Game, state: State, seconds: float, seed: int) -> tuple[float, float]:
    """(iterations per second, time used / budget) of one timed search."""
    player = state.current_player()
    agent = IsmctsAgent(game, seed, seconds=seconds)
    result = agent.search(state.view(player), state.legal_actions())
    return result.iterations / max(result.seconds, 1e-9), result.seconds / seconds


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--smoke", action="store_true", help="one brief search per position")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.runs = 0.05, 1
    ids = args.games or [
        g for g in REGISTRY.implemented() if "ismcts" in agent_names(spieltisch.load(g))
    ]
    print(f"{'game':16} {'first it/s':>11} {'mid it/s':>10} {'budget used':>12}")
    for game_id in ids:
        game = spieltisch.load(game_id, args.players)
        first, middle = positions(game, 1)
        runs = [(rate(game, first, args.seconds, r), rate(game, middle, args.seconds, r))
                for r in range(args.runs)]  # fmt: skip
        first_rate = statistics.median(a[0] for a, _ in runs)
        middle_rate = statistics.median(b[0] for _, b in runs)
        used = statistics.median([a[1] for a, _ in runs] + [b[1] for _, b in runs])
        print(f"{game_id:16} {first_rate:>11,.0f} {middle_rate:>10,.0f} {used:>11.1%}")


if __name__ == "__main__":
    main()
