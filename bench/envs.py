"""Environment steps per second: spieltisch's games beside PettingZoo's and OpenSpiel's own.

    python bench/envs.py [--steps 20000] [--repeats 3]

Every environment is run with random masked actions (chance resolved inside the step) for
``--steps`` player steps, the median of ``--repeats`` runs, in one process, timed in CPU time
(the process's own, so that other work on a shared machine disturbs every row alike):

* the AEC loop (``agent_iter``, ``last``, a random action from the mask, ``step``) over the
  spieltisch PettingZoo environments and PettingZoo's classic card environments (Leduc,
  Texas Hold'em and its no-limit game, which need ``rlcard``), each of ours given as a share
  of their mean and of the fastest of them (Leduc);
* the OpenSpiel loop (``chance_outcomes`` sampled at chance nodes; at a decision
  ``legal_actions``, ``observation_tensor`` and ``apply_action``) over the spieltisch
  OpenSpiel games and OpenSpiel's own Python games.

Then, per spieltisch game, what one step costs, in microseconds (medians of ``--repeats``
runs): applying the action (the table's checks and the rules), letting chance act up to the
next decision, building the seat's view, encoding it, the rules listing the legal actions,
turning them into the mask, and the rest of the AEC step (the environment's and PettingZoo's
bookkeeping, the loop's random choice and resets: the whole step of the table above minus
those parts).
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
    from pettingzoo.classic import (  # type: ignore[import-untyped]
        leduc_holdem_v4,
        texas_holdem_no_limit_v6,
        texas_holdem_v4,
    )

    CLASSIC: list[tuple[str, Callable[[], Any]]] = [
        ("PettingZoo leduc_holdem_v4", leduc_holdem_v4.env),
        ("PettingZoo texas_holdem_v4", texas_holdem_v4.env),
        ("PettingZoo texas_holdem_no_limit_v6", texas_holdem_no_limit_v6.env),
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
PARTS = ("apply", "chance", "view", "encode", "legal", "mask")


def aec_rate(make: Callable[[], Any], steps: int) -> float:
    """Player steps per second of the AEC loop over the environment ``make()`` builds."""
    env = make()
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    done = 0
    start = time.process_time()
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
    return done / (time.process_time() - start)


def openspiel_rate(name: str, steps: int) -> float:
    """Player steps per second of the OpenSpiel loop over the game ``name``."""
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(0)
    done = 0
    start = time.process_time()
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
    return done / (time.process_time() - start)


def median(rate: Callable[[], float], repeats: int) -> float:
    """The median of ``repeats`` runs."""
    return statistics.median(rate() for _ in range(repeats))


def clock_cost(clock: Callable[[], float], calls: int = 20_000) -> float:
    """Seconds one call of ``clock`` takes (each timed part pays about one call)."""
    start = clock()
    for _ in range(calls):
        clock()
    return (clock() - start) / calls


def step_costs(game_id: str, steps: int) -> dict[str, float]:
    """Microseconds per player step spent in each part of an environment step (less the
    clock's own cost)."""
    match = Match(spieltisch_pz.raw_env(game_id).game)
    parts = dict.fromkeys(PARTS, 0.0)
    rng = np.random.default_rng(0)
    clock = time.process_time
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
            table.legal()  # the rules list the legal actions (kept by the state)
            t2b = clock()
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
            parts["legal"] += t2b - t2
            parts["mask"] += t3 - t2b
            parts["apply"] += t5 - t4
            parts["chance"] += t6 - t5
            done += 1
    tick = clock_cost(clock)
    return {name: max(0.0, 1e6 * (spent / done - tick)) for name, spent in parts.items()}


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
        rate = median(functools.partial(aec_rate, make, steps), repeats)
        rows.append((f"spieltisch {game_id} (PettingZoo AEC)", rate))
    for name, make_classic in CLASSIC:
        rows.append((name, median(functools.partial(aec_rate, make_classic, steps), repeats)))
    for name in OPENSPIEL_GAMES:
        rate = median(functools.partial(openspiel_rate, name, args.openspiel_steps), repeats)
        rows.append((f"OpenSpiel {name}", rate))
    classic = [rate for name, rate in rows if name.startswith("PettingZoo")]
    mean, fastest = (statistics.mean(classic), max(classic)) if classic else (None, None)
    print("| environment | steps/s | vs PettingZoo classic (mean) | vs the fastest of them |")
    print("|---|---:|---:|---:|")
    for name, rate in rows:
        ratios = [f"{rate / ref:.2f}x" if ref else "-" for ref in (mean, fastest)]
        print(f"| {name} | {rate:,.0f} | {' | '.join(ratios)} |")
    print()
    print("| game | " + " | ".join(PARTS) + " | rest | µs per AEC step |")
    print("|---|" + "---:|" * (len(PARTS) + 2))
    for index, game_id in enumerate(GAMES):
        runs = [step_costs(game_id, min(steps, 5_000)) for _ in range(repeats)]
        costs = {part: statistics.median(run[part] for run in runs) for part in PARTS}
        whole = 1e6 / rows[index][1]
        cells = " | ".join(f"{costs[part]:.1f}" for part in PARTS)
        print(f"| {game_id} | {cells} | {whole - sum(costs.values()):.1f} | {whole:.1f} |")


if __name__ == "__main__":
    main()
