"""Environment steps per second: spieltisch's games beside PettingZoo's and OpenSpiel's own.

    python bench/envs.py [--steps 20000] [--repeats 3] [--parts aec,batch,pyspiel,costs]

``--parts batch``: the batched engine (``spieltisch.rl.batch``: N games a step, ``--batch``
of them) and its Gymnasium ``VectorEnv`` face, beside Leduc and Texas Hold'em under PettingZoo's
own ``performance_benchmark`` loop (the same loop, timed in CPU time instead of wall time), all
in this process; each row's share of Leduc. The batch's loop picks each game's action as that
benchmark does (``random.choice`` over the mask's ids).

``--parts pyspiel``: random playouts through pyspiel (every action counted, chance steps
included, as ``apply_action`` calls), the spieltisch OpenSpiel games beside OpenSpiel's C++
hearts and pig driven from the same Python loop, each as a share of hearts measured in the
same round (rounds interleaved, medians).

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
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import open_spiel.python.games  # type: ignore[import-untyped]  # noqa: F401 - registers them
import pyspiel  # type: ignore[import-not-found]

import spieltisch.rl.openspiel  # noqa: F401 - registers the spieltisch games with OpenSpiel
from spieltisch.rl import pettingzoo as spieltisch_pz
from spieltisch.rl.batch import BatchedGames, SpieltischVectorEnv
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


def benchmark_rate(make: Callable[[], Any], seconds: float) -> float:
    """Player turns per CPU second of PettingZoo's ``performance_benchmark`` loop (cycles of
    ``agent_iter(num_agents)``, a random id from the mask, reset when every agent is done)."""
    env = make()
    env.reset(seed=0)
    turns = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _agent in env.agent_iter(env.num_agents):
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                action = random.choice(np.flatnonzero(observation["action_mask"]).tolist())
            env.step(action)
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
    return turns / (time.process_time() - start)


def batch_rate(game_id: str, num: int, seconds: float) -> float:
    """Steps (one decision of one game) per CPU second of :class:`BatchedGames`."""
    batch = BatchedGames(game_id, num)
    batch.reset(0)
    masks = batch.action_mask
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        batch.step([random.choice(np.flatnonzero(row).tolist()) for row in masks])
        steps += num
    return steps / (time.process_time() - start)


def vector_rate(game_id: str, num: int, seconds: float) -> float:
    """Learner steps per CPU second of :class:`SpieltischVectorEnv` against random opponents
    (whose moves happen inside a step and are not counted)."""
    envs = SpieltischVectorEnv(game_id, num, opponents="random")
    _, info = envs.reset(seed=0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        masks = info["action_mask"]
        actions = [random.choice(np.flatnonzero(row).tolist()) for row in masks]
        _, _, _, _, info = envs.step(actions)
        steps += num
    return steps / (time.process_time() - start)


def batch_table(args: argparse.Namespace) -> None:
    """The batched engine beside Leduc and Texas Hold'em (see the module docstring)."""
    seconds, repeats, num = args.seconds, args.repeats, args.batch
    rows: list[tuple[str, list[float]]] = []
    for name, make_classic in CLASSIC[:2]:
        rows.append((name, [benchmark_rate(make_classic, seconds) for _ in range(repeats)]))
    for game_id in GAMES:
        rates = [batch_rate(game_id, num, seconds) for _ in range(repeats)]
        rows.append((f"spieltisch {game_id} BatchedGames ({num} games)", rates))
        rates = [vector_rate(game_id, num, seconds) for _ in range(repeats)]
        rows.append((f"spieltisch {game_id} VectorEnv ({num}, learner steps)", rates))
    leduc = statistics.median(rows[0][1]) if CLASSIC else None
    print("| environment | steps/s (median) | vs Leduc |")
    print("|---|---:|---:|")
    for name, rates in rows:
        rate = statistics.median(rates)
        share = f"{rate / leduc:.2f}x" if leduc else "-"
        print(f"| {name} | {rate:,.0f} | {share} |")


PYSPIEL_GAMES = (
    "spieltisch_auf_die_eier",
    "spieltisch_auf_die_eier(players=4)",
    "spieltisch_auf_die_nuesse",
    "spieltisch_auweier(players=2)",
    "spieltisch_auweier(players=4)",
    "spieltisch_awimbawe",
    "pig",
)


def playout_rate(name: str, seconds: float, seed: int) -> float:
    """Actions (chance steps included) per CPU second of random playouts through pyspiel."""
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                ids, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(ids, chances)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return actions / (time.process_time() - start)


def pyspiel_table(args: argparse.Namespace) -> None:
    """Random playouts through pyspiel, as shares of C++ hearts (see the module docstring)."""
    shares: dict[str, list[float]] = {name: [] for name in ("hearts", *PYSPIEL_GAMES)}
    rates: dict[str, list[float]] = {name: [] for name in shares}
    for round_ in range(args.repeats):
        hearts = playout_rate("hearts", args.seconds, round_)
        rates["hearts"].append(hearts)
        shares["hearts"].append(1.0)
        turn = round_ % len(PYSPIEL_GAMES)
        order = PYSPIEL_GAMES[turn:] + PYSPIEL_GAMES[:turn]
        for name in order:
            rate = playout_rate(name, args.seconds, round_)
            rates[name].append(rate)
            shares[name].append(rate / hearts)
    print("| game through pyspiel | actions/s (median) | share of C++ hearts (median [min-max]) |")
    print("|---|---:|---:|")
    for name, found in shares.items():
        rate = statistics.median(rates[name])
        low, mid, high = min(found), statistics.median(found), max(found)
        print(f"| {name} | {rate:,.0f} | {mid:.3f} [{low:.3f}-{high:.3f}] |")


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
    parser.add_argument("--parts", default="aec,costs", help="aec, costs, batch, pyspiel")
    parser.add_argument("--batch", type=int, default=64, help="games a batched step")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a window")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    if "batch" in parts:
        batch_table(args)
        print()
    if "pyspiel" in parts:
        pyspiel_table(args)
        print()
    if not parts & {"aec", "costs"}:
        return
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
