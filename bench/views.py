"""What a view costs: building it, and writing it as JSON, per game, in CPU time.

    python bench/views.py [--windows 5] [--games 20] [GAME_ID ...]
    PYTHONPATH=OTHER_TREE python bench/views.py     # the same figures for another tree

The web server writes the view of every seat after every move (``to_jsonable``), and a play
loop builds one for every agent that reads it. This plays ``--games`` random games per game,
then in each window replays them afresh (so no value keeps what an earlier window worked out)
and times, for every decision, the acting player's view and its JSON form, and (on states
replayed afresh again) the views of every seat and of a spectator together. It prints the
median over the windows of the microseconds per decision, with min and max.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import spieltisch
from spieltisch.core.codec import to_jsonable
from spieltisch.core.game import Game, Move, State


def play(game: Game, games: int) -> list[list[Move]]:
    """The moves of ``games`` random games (chance included), seeded."""
    rng = random.Random(3)
    played = []
    for _ in range(games):
        state, moves = game.initial_state(), []
        while not state.is_terminal():
            if state.is_chance():
                move = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                move = legal[rng.randrange(len(legal))]
            moves.append(move)
            state = state.apply(move)
        played.append(moves)
    return played


def decisions(game: Game, played: list[list[Move]]) -> list[State]:
    """Every decision state of the games ``played``, rebuilt from their moves."""
    states = []
    for moves in played:
        state = game.initial_state()
        for move in moves:
            if not state.is_chance():
                states.append(state)
            state = state.apply(move)
    return states


def window(game: Game, played: list[list[Move]]) -> tuple[float, float, float]:
    """Microseconds per decision: building the acting player's view, writing it as JSON, and
    building every seat's view and the spectator's (as the web server does after a move)."""
    states = decisions(game, played)
    start = time.process_time()
    views = [state.view(state.current_player()) for state in states]
    built = time.process_time() - start
    start = time.process_time()
    for view in views:
        to_jsonable(view)
    written = time.process_time() - start
    states = decisions(game, played)
    seats = [None, *range(game.players)]
    start = time.process_time()
    for state in states:
        for seat in seats:
            state.view(seat)
    every = time.process_time() - start
    return built / len(states) * 1e6, written / len(states) * 1e6, every / len(states) * 1e6


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_ids", nargs="*")
    parser.add_argument("--windows", type=int, default=5)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    ids = args.games_ids or ["auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe"]
    print(f"{'game':16} {'view us':>20} {'to_jsonable us':>20} {'every seat us':>20}")
    for game_id in ids:
        game = spieltisch.load(game_id, args.players)
        played = play(game, args.games)
        figures = [window(game, played) for _ in range(args.windows)]
        columns = []
        for part in (0, 1, 2):
            values = [f[part] for f in figures]
            columns.append(
                f"{statistics.median(values):7.1f} [{min(values):5.1f}-{max(values):5.1f}]"
            )
        print(f"{game_id:16} {columns[0]:>20} {columns[1]:>20} {columns[2]:>20}")
    print("medians of CPU-time windows, [min-max]; per decision of random games")


if __name__ == "__main__":
    main()
