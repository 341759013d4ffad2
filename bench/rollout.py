"""How much faster the native core weighs Auf die Nüsse!'s rollout moves than the Python reference.

    python bench/rollout.py [--positions 6] [--futures 4] [--runs 3] [--seed 5]

The same decisions (roll on or stop, and which white die, from seeded two-player games of
the heuristic) are weighed by the reference (:func:`spieltisch.games.auf_die_nuesse.bots.
rollout.weigh`) and by the native core, to the turn after next and to the third turn, with
the same futures. Prints the median over ``--runs`` of each one's CPU time per decision and
the ratio, measured in one process, and whether both chose the same moves.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from spieltisch.games.auf_die_nuesse import AufDieNuesse
from spieltisch.games.auf_die_nuesse.bots import HeuristicAgent, rollout
from spieltisch.games.auf_die_nuesse.model import Stage
from spieltisch.games.auf_die_nuesse.rules import NuesseState
from spieltisch.native import rollout as native_rollout

Answer = tuple[object, list[tuple[object, float]]]


def positions(count: int, seed: int) -> list[NuesseState]:
    """``count`` decisions the rollout agent weighs, from seeded heuristic games."""
    game = AufDieNuesse(2)
    heuristic, rng = HeuristicAgent(game, 0), random.Random(seed)
    found: list[NuesseState] = []
    state = game.initial_state()
    while len(found) < count:
        if state.is_terminal():
            state = game.initial_state()
        elif state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            player = state.current_player()
            assert player is not None
            legal = state.legal_actions()
            move = heuristic.act(state.view(player), legal)
            weighed = rollout.candidates(state.stage, legal, move)
            if state.stage in (Stage.PLACE, Stage.AGAIN) and len(weighed) > 1:
                found.append(state)
            state = state.apply(move)
    return found


def cpu_seconds(weigh: Callable[[NuesseState], Answer], states: list[NuesseState]) -> float:
    """CPU seconds to weigh every state once."""
    start = time.process_time()
    for state in states:
        weigh(state)
    return time.process_time() - start


def main() -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--futures", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if not native_rollout.supported():
        raise SystemExit("the native core is not built here (README, 'The native core')")
    states = positions(args.positions, args.seed)
    print(f"{'turn':>4} {'python ms':>10} {'native ms':>10} {'ratio':>8}  same moves")
    for horizon in (rollout.HORIZON, 3):

        def pure(state: NuesseState, horizon: int = horizon) -> Answer:
            me = state.current_player()
            assert me is not None
            legal = state.legal_actions()
            return rollout.weigh(state, me, legal, args.futures, 7, horizon)

        def native(state: NuesseState, horizon: int = horizon) -> Answer:
            me = state.current_player()
            assert me is not None
            view, legal = state.view(me), state.legal_actions()
            return native_rollout.weigh(view, legal, args.futures, 7, horizon)

        same = all(pure(s) == native(s) for s in states)
        python_runs = [cpu_seconds(pure, states) for _ in range(args.runs)]
        native_runs = [cpu_seconds(native, states) for _ in range(args.runs)]
        python_ms = 1000 * statistics.median(python_runs) / len(states)
        native_ms = 1000 * statistics.median(native_runs) / len(states)
        ratio = python_ms / native_ms
        print(f"{horizon:>4} {python_ms:>10.1f} {native_ms:>10.3f} {ratio:>7.0f}×  {same}")


if __name__ == "__main__":
    main()
