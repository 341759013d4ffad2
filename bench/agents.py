"""How quickly each game's quick agents (every level but the search) answer a decision.

    python bench/agents.py [--games 5] [--runs 3] [--players 2] [GAME_ID ...]

For each game and agent, ``--games`` seeded games of the agent against itself are played and
the agent's decisions timed (the rules' own steps are not counted). Prints the median over
``--runs`` of the mean time per decision, and its ratio to the heuristic's, measured in the
same process so that the ratio holds on a busy machine too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import spieltisch
from spieltisch.agents import agent_names, make_agent
from spieltisch.core.game import Game
from spieltisch.games import REGISTRY

REFERENCE = "heuristic"
"""The agent the others are compared with."""


def seconds_per_decision(game: Game, name: str, games: int, seed: int) -> float:
    """The mean time ``name`` takes to answer, over ``games`` games against itself."""
    spent, decisions = 0.0, 0
    for number in range(games):
        agents = [make_agent(name, game, seed + number * 10 + p) for p in range(game.players)]
        chance = random.Random(seed + number)
        state = game.initial_state()
        while not state.is_terminal():
            player = state.current_player()
            if player is None:
                state = state.apply(state.sample_chance(chance))
                continue
            view, legal = state.view(player), state.legal_actions()
            start = time.perf_counter()
            move = agents[player].act(view, legal)
            spent += time.perf_counter() - start
            decisions += 1
            state = state.apply(move)
    return spent / max(decisions, 1)


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_ids", nargs="*", metavar="GAME_ID")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    print(f"{'game':16} {'agent':10} {'ms/decision':>12} {'vs ' + REFERENCE:>14}")
    for game_id in args.games_ids or REGISTRY.implemented():
        game = spieltisch.load(game_id, args.players)
        names = [n for n in agent_names(game) if n != "ismcts"]
        times = {
            name: statistics.median(
                seconds_per_decision(game, name, args.games, run) for run in range(args.runs)
            )
            for name in names
        }
        reference = times.get(REFERENCE)
        for name in names:
            ratio = f"{times[name] / reference:.1f}x" if reference else "-"
            print(f"{game_id:16} {name:10} {times[name] * 1000:>12.3f} {ratio:>14}")


if __name__ == "__main__":
    main()
