"""Environment steps per second: spieltisch's games beside PettingZoo's and OpenSpiel's own.

    python bench/envs.py [--steps 20000] [--repeats 3]

Every environment is run with random masked actions (chance resolved inside the step) for
``--steps`` player steps, best of ``--repeats``, in one process:

* the AEC loop (``agent_iter``, ``last``, a random action from the mask, ``step``) over the
  spieltisch PettingZoo environments and PettingZoo's classic card environments (Leduc and
  Texas Hold'em, which need ``rlcard``);
* the OpenSpiel loop (``chance_outcomes`` sampled at chance nodes; at a decision
  ``legal_actions``, ``observation_tensor`` and ``apply_action``) over the spieltisch
  OpenSpiel games and OpenSpiel's own Python games.

Then, per spieltisch game, what one step costs, in microseconds: applying the action (the
table's checks and the rules), letting chance act up to the next decision, building the
seat's view, encoding it, and the mask (the rest is the environment's bookkeeping).
"""

from __future__ import annotations

import argparse
import functools
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import open_spiel.python.games  # type: ignore[import-untyped]  # noqa: F401 - registers them
import pyspiel  # type: ignore[import-not-found]

import spieltisch.rl.openspiel  # noqa: F401 - registers the spieltisch games with OpenSpiel
from spieltisch.rl import pettingzoo as spieltisch_pz
from spieltisch.rl.match import Match

try:  # PettingZoo's classic card environments need rlcard (and pygame)
    from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4  # type: ignore[import-untyped]

    CLASSIC: list[tuple[str, Callable[[], Any]]] = [
        ("PettingZoo leduc_holdem_v4", leduc_holdem_v4.env),
        ("PettingZoo texas_holdem_v4", texas_holdem_v4.env),
    ]
except ImportError:  # pragma: no cover - rlcard is not installed
    CLASSIC = []

OPENSPIEL_GAMES = (
    "spieltisch_auf_die_eier",
    "spieltisch_auf_die_nuesse",
    "spieltisch_auweier",
    "spieltisch_awimbawe",
    "python_kuhn_poker",
    "python_liars_poker",
    "python_block_dominoes",
)

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")


def aec_rate(make: Callable[[], Any], steps: int) -> float:
    """Player steps per second of the AEC loop over the environment ``make()`` builds."""
    env = make()
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1
        env.reset()
    return done / (time.perf_counter() - start)


def openspiel_rate(name: str, steps: int) -> float:
    """Player steps per second of the OpenSpiel loop over the game ``name``."""
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                chances = np.array([p for _, p in outcomes])
                state.apply_action(int(rng.choice(actions, p=chances / chances.sum())))
                continue
            player = state.current_player()
            legal = state.legal_actions()
            state.observation_tensor(player)
            state.apply_action(legal[int(rng.integers(len(legal)))])
            done += 1
    return done / (time.perf_counter() - start)


def best(rate: Callable[[], float], repeats: int) -> float:
    """The best of ``repeats`` runs (the least disturbed by other work on the machine)."""
    return max(rate() for _ in range(repeats))


def step_costs(game_id: str, steps: int) -> dict[str, float]:
    """Microseconds per player step spent in each part of an environment step."""
    match = Match(spieltisch_pz.raw_env(game_id).game)
    parts = dict.fromkeys(("apply", "chance", "view", "encode", "mask"), 0.0)
    rng = np.random.default_rng(0)
    clock = time.perf_counter
    done = 0
    seed = 0
    while done < steps:
        match.reset(seed)
        seed += 1
        table = match.table
        while not table.over:
            player = table.to_act()
            t0 = clock()
            view = table.view(player)
            t1 = clock()
            match.encoder.encode(view)
            t2 = clock()
            mask = match.mask()
            t3 = clock()
            legal = np.flatnonzero(mask)
            move = match.game.action_from_id(int(legal[rng.integers(len(legal))]))
            t4 = clock()
            table.play(move)
            t5 = clock()
            while not table.over and table.to_act() is None:
                table.advance_chance()
            t6 = clock()
            parts["view"] += t1 - t0
            parts["encode"] += t2 - t1
            parts["mask"] += t3 - t2
            parts["apply"] += t5 - t4
            parts["chance"] += t6 - t5
            done += 1
    return {name: 1e6 * spent / done for name, spent in parts.items()}


def main() -> None:
    """Print the speed table and the cost of a step."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--openspiel-steps", type=int, default=3_000)
    args = parser.parse_args()
    steps, repeats = args.steps, args.repeats
    rows: list[tuple[str, float]] = []
    for game_id in GAMES:
        make = functools.partial(spieltisch_pz.env, game_id)
        rate = best(functools.partial(aec_rate, make, steps), repeats)
        rows.append((f"spieltisch {game_id} (PettingZoo AEC)", rate))
    for name, make_classic in CLASSIC:
        rows.append((name, best(functools.partial(aec_rate, make_classic, steps), repeats)))
    for name in OPENSPIEL_GAMES:
        rate = best(functools.partial(openspiel_rate, name, args.openspiel_steps), repeats)
        rows.append((f"OpenSpiel {name}", rate))
    reference = (
        statistics.mean(rate for name, rate in rows if name.startswith("PettingZoo"))
        if CLASSIC
        else None
    )
    print("| environment | steps/s | vs PettingZoo classic (mean) |")
    print("|---|---:|---:|")
    for name, rate in rows:
        ratio = f"{rate / reference:.2f}x" if reference else "-"
        print(f"| {name} | {rate:,.0f} | {ratio} |")
    print()
    print("| game | apply | chance | view | encode | mask | µs per step |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game_id in GAMES:
        costs = step_costs(game_id, min(steps, 5_000))
        cells = " | ".join(f"{costs[k]:.1f}" for k in ("apply", "chance", "view", "encode", "mask"))
        print(f"| {game_id} | {cells} | {sum(costs.values()):.1f} |")


if __name__ == "__main__":
    main()
