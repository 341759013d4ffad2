"""How good are the lab's win-chance estimates? Log loss and Brier score against who won.

The game-quality measures (``spieltisch.lab.quality``) stand on a per-decision estimate of each
player's chance to win. This plays ``--games`` games a player count with the lab's agents,
takes the estimate at every decision and scores it against the game's winners (a shared win
split), beside the plain shares of the points so far and an even split (the two baselines).
For Auweier it also scans the spread of the final score (``auweier_odds.SPREAD``) and prints the
one of lowest log loss: the fit behind that constant. Figures only, no thresholds.

Run: .venv/bin/python bench/quality_estimates.py [--games 200] [--game auweier]
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence

import spieltisch
from spieltisch.core.game import State
from spieltisch.games.auweier.rules import AuweierState
from spieltisch.games.awimbawe.bots.evaluate import match_odds
from spieltisch.games.awimbawe.rules import AwimbaweState
from spieltisch.lab import auweier_odds, quality
from spieltisch.lab.agents import lab_agent
from spieltisch.lab.play import play_on

AGENTS = {
    "auf-die-eier": "expert",
    "auweier": "heuristic",
    "auf-die-nuesse": "search:200",
    "awimbawe": "heuristic",
}
PLAYERS = {
    "auf-die-eier": (2, 4, 6),
    "auweier": (2, 3, 4),
    "auf-die-nuesse": (2, 4),
    "awimbawe": (2,),
}
SPREADS = (0.4, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 2.5)

Estimate = Callable[[State], Sequence[float]]


def decisions(
    game_id: str, players: int, games: int, seed: int
) -> list[tuple[list[State], frozenset[int]]]:
    """The decision states of ``games`` games and their winners."""
    game = spieltisch.load(game_id, players)
    played = []
    for g in range(games):
        rng = random.Random(seed + g)
        agents = [lab_agent(AGENTS[game_id], game, seed + 31 * g + p) for p in range(players)]
        states = list(play_on(game.initial_state(), agents, rng))
        final = states[-1]
        picked = [s for s in states if not s.is_terminal() and not s.is_chance()]
        played.append((picked, final.winners()))
    return played


def score(
    played: list[tuple[list[State], frozenset[int]]], estimate: Estimate
) -> tuple[float, float]:
    """Mean log loss (of the winners' share) and mean Brier score over every decision."""
    loss = brier = 0.0
    count = 0
    for states, winners in played:
        if not winners:
            continue
        for s in states:
            chances = estimate(s)
            truth = [1 / len(winners) if p in winners else 0.0 for p in range(len(chances))]
            loss -= sum(t * math.log(max(c, 1e-9)) for t, c in zip(truth, chances, strict=True))
            brier += sum((t - c) ** 2 for t, c in zip(truth, chances, strict=True))
            count += 1
    return loss / count, brier / count


def even(state: State) -> Sequence[float]:
    n = len(state.scores())
    return [1 / n] * n


def _rounds_won(state: State) -> Sequence[float]:
    assert isinstance(state, AwimbaweState)
    needed, wins = state.match.config.rounds_to_win, state.match.wins
    odds = match_odds((needed - wins[0], needed - wins[1]))
    return (odds, 1 - odds)


def _auweier_at(spread: float) -> Estimate:
    def estimate(state: State) -> Sequence[float]:
        assert isinstance(state, AuweierState)
        return auweier_odds.win_chances(state, spread)

    return estimate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", choices=sorted(AGENTS), action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game_id in args.game or ("auf-die-eier", "auweier"):
        for players in PLAYERS[game_id]:
            played = decisions(game_id, players, args.games, args.seed)
            rows = {
                "lab estimate": quality.estimator(game_id),
                "points shares": quality.score_shares,
                "even split": even,
            }
            if game_id == "awimbawe":  # the match odds alone, before the round in play counted
                rows["rounds won only"] = _rounds_won
            print(f"{game_id}, {players} players, {args.games} games:")
            for name, estimate in rows.items():
                loss, brier = score(played, estimate)
                print(f"  {name:<14} log loss {loss:.4f}  Brier {brier:.4f}")
            if game_id == "auweier":
                fits = [(score(played, _auweier_at(k))[0], k) for k in SPREADS]
                print("  spread scan: " + ", ".join(f"{k}: {loss:.4f}" for loss, k in fits))
                print(f"  lowest log loss at spread {min(fits)[1]}")


if __name__ == "__main__":
    main()
