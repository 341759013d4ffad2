"""Before/after figures of two source trees, measured in one run with interleaved windows.

    python bench/before_after.py BASELINE_TREE [--windows 5] [--seconds 1.5] [GAME_ID ...]

For each game it times, in CPU time, three things in both trees, one window of each tree in
turn (a fresh interpreter per window, the tree's package first on its path): random playouts
through the engine's own loop (actions per second, chance included), the simulate path (a
whole game between random agents through ``lab.play.play_game``, actions per second), and
ISMCTS iterations per second at a fixed number of iterations from a mid-game decision. It
prints the median of each and the median of the per-window ratios this tree / baseline, so
that a noisy shared machine still gives a fair comparison. Both trees must offer
``spieltisch.load``, ``spieltisch.agents.IsmctsAgent`` and ``spieltisch.lab.play``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

WINDOW = r"""
import json, random, sys, time
import spieltisch
from spieltisch.agents import IsmctsAgent, make_agent
from spieltisch.lab.play import play_game

game_id, players, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
game = spieltisch.load(game_id, players)

def engine(seconds):
    rng = random.Random(1)
    moves, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.initial_state()
        while not state.is_terminal():
            if state.is_chance():
                move = state.sample_chance(rng)
            else:
                legal = state.legal_actions()
                move = legal[rng.randrange(len(legal))]
            state = state.apply(move)
            moves += 1
    return moves / (time.process_time() - start)

def simulate(seconds):
    actions, start, seed = 0, time.process_time(), 0
    while time.process_time() - start < seconds:
        agents = [make_agent("random", game, seed + p) for p in range(game.players)]
        played = play_game(game, agents, seed)
        actions += len(played.record.moves)
        seed += 1
    return actions / (time.process_time() - start)

def position():
    rng = random.Random(5)
    state, decisions = game.initial_state(), []
    while not state.is_terminal():
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            decisions.append(state)
        state = state.apply(legal[rng.randrange(len(legal))])
    for state in decisions[len(decisions) // 2:]:
        player = state.current_player()
        probe = IsmctsAgent(game, 1, iterations=2).search(state.view(player), state.legal_actions())
        if probe.iterations:
            return state
    raise SystemExit("no searchable decision")

def search(iterations):
    state = position()
    player = state.current_player()
    agent = IsmctsAgent(game, 1, iterations=iterations)
    start = time.process_time()
    result = agent.search(state.view(player), state.legal_actions())
    return result.iterations / (time.process_time() - start)

engine(0.2)
print(json.dumps({"engine": engine(seconds), "simulate": simulate(seconds),
                  "ismcts": search(int(sys.argv[4]))}))
"""


def window(
    tree: Path, game: str, players: int, seconds: float, iterations: int
) -> dict[str, float]:
    """One window's figures for ``tree``."""
    command = [sys.executable, "-c", WINDOW, game, str(players), str(seconds), str(iterations)]
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=tree)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("games", nargs="*")
    parser.add_argument("--windows", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    games = args.games or ["auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe"]
    print(f"{'game':16} {'figure':9} {'before':>11} {'after':>11} {'after/before':>13}")
    for game in games:
        before: list[dict[str, float]] = []
        after: list[dict[str, float]] = []
        for _ in range(args.windows):
            before.append(window(args.baseline, game, args.players, args.seconds, args.iterations))
            after.append(window(HERE, game, args.players, args.seconds, args.iterations))
        for figure in ("engine", "simulate", "ismcts"):
            old = statistics.median(w[figure] for w in before)
            new = statistics.median(w[figure] for w in after)
            ratio = statistics.median(
                a[figure] / b[figure] for a, b in zip(after, before, strict=True)
            )
            print(f"{game:16} {figure:9} {old:>11,.0f} {new:>11,.0f} {ratio:>13.3f}")
    print(
        "engine and simulate: actions per CPU second (chance included); ismcts: iterations per "
        "CPU second; medians of interleaved windows, ratio = median of per-window ratios."
    )


if __name__ == "__main__":
    main()
