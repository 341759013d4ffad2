"""OpenSpiel's ISMCTS and MCTS bots against spieltisch's agents, in the lab's arena.

    python examples/openspiel_arena.py [--games 20] [--workers 1] [--simulations 50]

Each pairing is an arena run (seats rotated on shared deals, see ``spieltisch.lab.arena``)
seated from the agent catalogue: ``openspiel-ismcts:N`` and ``openspiel-mcts:N`` are
:class:`spieltisch.rl.bots.OpenSpielAgent` with ``N`` simulations a decision (``:2s`` for a
time budget); every other name is one of the game's own agents. Prints each pairing's win
rates with 95% intervals as a Markdown table.
"""

from __future__ import annotations

import argparse
import time

import spieltisch
from spieltisch.lab import arena
from spieltisch.lab.summary import summarise


def main() -> None:
    """Run the pairings and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    sims = args.simulations
    pairings = [
        ("awimbawe", f"openspiel-ismcts:{sims}", "random"),
        ("awimbawe", f"openspiel-ismcts:{sims}", "heuristic"),
        ("awimbawe", f"openspiel-mcts:{sims}", "heuristic"),
        ("awimbawe", f"openspiel-ismcts:{sims}", "ismcts"),
        ("auf-die-eier", f"openspiel-mcts:{sims}", "random"),
        ("auf-die-eier", f"openspiel-mcts:{sims}", "heuristic"),
    ]
    print("| game | OpenSpiel bot | against | games | bot's win rate (95%) | seconds |")
    print("|---|---|---|---:|---|---:|")
    for game_id, bot, other in pairings:
        game = spieltisch.load(game_id)
        tasks = arena.schedule(game, [bot, other], args.games, args.seed)
        start = time.perf_counter()
        results = arena.run(tasks, args.workers)
        row = summarise(results, [bot, other], game=game_id, players=game.players).row(bot)
        low, high = row.win_rate_ci95
        print(
            f"| {game_id} | {bot} | {other} | {row.seats_played} | {row.win_rate:.1%} "
            f"[{low:.1%}, {high:.1%}] | {time.perf_counter() - start:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
