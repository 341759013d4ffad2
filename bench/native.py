"""The native core against the Python engine and OpenSpiel's C++ games, in one process.

Speed (``--parts speed``): uniformly random playouts of every game at 2 and 4 players (and 6
for Auf die Eier), steps a CPU second (actions and chance outcomes both count), by

- ``python``: the Python engine's own loop (``core.playout``);
- ``native loop``: a Python loop over native states, one call per question or step, as a
  Python program drives OpenSpiel's games (``is_terminal``, ``is_chance``, ``legal_actions``,
  ``apply``/``apply_random_chance``);
- ``native``: whole playouts inside Rust (``NativeGame.playouts``, one thread);

and, where ``open_spiel`` is installed, OpenSpiel's C++ pig (for the dice games) and hearts
(for the card games) driven by the same Python loop and played inside C++ (``evaluate_bots``
with uniform random bots; its steps a game counted from the Python loop). Items run in
interleaved windows, rounds rotating the order; each figure is the median over the rounds of
CPU-time rates, and each ratio is taken within a round, then the median.

Agreement (``--parts agree``): the agreement test's walk (``tests/native/agreement.py``), a
million steps per game by default, over every player count and option value; prints the
steps, games and refusals checked per game.

    python bench/native.py [--parts speed,agree] [--rounds 5] [--window 0.5]
        [--agree-steps 1000000] [--games awimbawe,...] [--json out.json]

``--smoke`` runs every part briefly (the figures then mean nothing).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loops import random_game  # bench/loops.py (the script's own folder is on the path)

import spieltisch
from spieltisch import native

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "auf-die-eier": ((2, 4, 6), "pig"),
    "auf-die-nuesse": ((2, 4), "pig"),
    "auweier": ((2, 4), "hearts"),
    "awimbawe": ((2,), "hearts"),
}
"""Each game's player counts measured and its OpenSpiel counterpart."""

Play = Callable[[], float]
"""Plays one game; returns its steps."""


def python_loop(game_id: str, players: int, seed: int) -> Play:
    game = spieltisch.load(game_id, players)
    rng = random.Random(seed)
    return lambda: float(random_game(game, rng))


def native_loop(game_id: str, players: int, seed: int) -> Play:
    game = native.load(game_id, players)
    rng = native.Rng(seed)
    choice = random.Random(seed).choice

    def play() -> float:
        state = game.initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance():
                state.apply_random_chance(rng)
            else:
                state.apply(choice(state.legal_actions()))
            steps += 1
        return float(steps)

    return play


def native_inside(game_id: str, players: int, seed: int, batch: int = 64) -> Play:
    game = native.load(game_id, players)
    counter = [seed]

    def play() -> float:
        counter[0] += 1
        return float(game.playouts(batch, counter[0]).steps.sum())

    return play


def openspiel_loop(name: str, seed: int) -> Play:
    import pyspiel  # noqa: PLC0415 - optional: only with open_spiel installed

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    choice, draw = rng.choice, rng.random

    def play() -> float:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                x, total, outcome = draw(), 0.0, 0
                for outcome, chance in state.chance_outcomes():  # noqa: B007 - kept after
                    total += chance
                    if x < total:
                        break
                state.apply_action(outcome)
            else:
                state.apply_action(choice(state.legal_actions()))
            steps += 1
        return float(steps)

    return play


def openspiel_inside(name: str, seed: int, steps_per_game: float) -> Play:
    import pyspiel  # noqa: PLC0415

    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, seed + 17 * p) for p in range(game.num_players())]
    counter = [seed]

    def play() -> float:
        counter[0] += 1
        pyspiel.evaluate_bots(game.new_initial_state(), bots, counter[0])
        return steps_per_game

    return play


def mean_steps(play: Play, games: int = 200) -> float:
    return sum(play() for _ in range(games)) / games


def window(play: Play, seconds: float) -> float:
    """Steps a CPU second of ``play`` over about ``seconds`` of wall time."""
    steps = 0.0
    start_cpu, start = time.process_time(), time.perf_counter()
    while True:
        steps += play()
        if time.perf_counter() - start >= seconds:
            return steps / max(time.process_time() - start_cpu, 1e-9)


def interleave(items: dict[str, Play], rounds: int, seconds: float) -> dict[str, list[float]]:
    names = list(items)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        order = names[round_ % len(names) :] + names[: round_ % len(names)]
        for name in reversed(order) if round_ % 2 else order:
            gc.collect()
            rates[name].append(window(items[name], seconds))
        print(f"# round {round_ + 1}/{rounds}", file=sys.stderr, flush=True)
    return rates


def speed_items(games: list[str], seed: int) -> tuple[dict[str, Play], dict[str, str]]:
    """Every item to time, and each game item's OpenSpiel counterpart (where installed)."""
    items: dict[str, Play] = {}
    matched: dict[str, str] = {}
    try:
        import pyspiel  # noqa: F401, PLC0415
    except ImportError:
        have_openspiel = False
    else:
        have_openspiel = True
        for name in ("pig", "hearts"):
            loop = openspiel_loop(name, seed)
            items[f"os {name} loop"] = loop
            items[f"os {name} inside"] = openspiel_inside(name, seed, mean_steps(loop))
    for game_id in games:
        counts, counterpart = GAMES[game_id]
        for players in counts:
            key = f"{game_id} {players}p"
            items[f"{key} python"] = python_loop(game_id, players, seed)
            items[f"{key} native loop"] = native_loop(game_id, players, seed)
            items[f"{key} native"] = native_inside(game_id, players, seed)
            if have_openspiel:
                matched[key] = counterpart
    return items, matched


def ratio(rates: dict[str, list[float]], a: str, b: str) -> float:
    return statistics.median(x / y for x, y in zip(rates[a], rates[b], strict=True))


def part_speed(args: argparse.Namespace, out: dict[str, Any]) -> None:
    items, matched = speed_items(args.games, args.seed)
    for play in items.values():  # warm-up: imports, caches
        window(play, 0.1)
    rates = interleave(items, args.rounds, args.window)
    print(f"\nRandom playouts, steps a CPU second (median of {args.rounds})")
    header = (
        f"{'game':<20} {'python':>10} {'native loop':>12} {'native':>12} "
        f"{'native/python':>14} {'loop/os loop':>13} {'native/os C++':>14}"
    )
    print(header)
    rows = {}
    for key in {name.rsplit(" ", 1)[0] for name in rates if name.endswith(" python")}:
        row = {
            kind: statistics.median(rates[f"{key} {kind}"])
            for kind in ("python", "native loop", "native")
        }
        row["native/python"] = ratio(rates, f"{key} native", f"{key} python")
        if key in matched:
            name = matched[key]
            row["loop/os loop"] = ratio(rates, f"{key} native loop", f"os {name} loop")
            row["native/os C++"] = ratio(rates, f"{key} native", f"os {name} inside")
        rows[key] = row
    for key in sorted(rows):
        row = rows[key]
        print(
            f"{key:<20} {row['python']:>10,.0f} {row['native loop']:>12,.0f} "
            f"{row['native']:>12,.0f} {row['native/python']:>13.1f}x "
            f"{row.get('loop/os loop', float('nan')):>12.2f}x "
            f"{row.get('native/os C++', float('nan')):>13.2f}x"
        )
    for name in ("os pig loop", "os pig inside", "os hearts loop", "os hearts inside"):
        if name in rates:
            print(f"{name:<20} {statistics.median(rates[name]):>10,.0f}")
    out["speed"] = {"rows": rows}
    out["references"] = {name: statistics.median(r) for name, r in rates.items() if "os " in name}


def part_agree(args: argparse.Namespace, out: dict[str, Any]) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.native.agreement import configs, walk  # noqa: PLC0415 - the test's own walk

    out["agree"] = {}
    for game_id in args.games:
        found = configs(game_id)
        share = max(1, args.agree_steps // len(found))
        steps = games = refusals = 0
        start = time.perf_counter()
        for index, config in enumerate(found):
            walked = walk(game_id, config, seed=args.seed + index, steps=share)
            steps, games = steps + walked.steps, games + walked.games
            refusals += walked.refusals
            print(
                f"# {game_id}: {index + 1}/{len(found)} configs, {steps:,} steps",
                file=sys.stderr,
                flush=True,
            )
        seconds = time.perf_counter() - start
        print(
            f"{game_id}: {steps:,} steps agree ({games:,} games, {len(found)} configs, "
            f"{refusals:,} refusals) in {seconds:.0f} s"
        )
        out["agree"][game_id] = {"steps": steps, "games": games, "configs": len(found)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="speed")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--window", type=float, default=0.5)
    parser.add_argument("--agree-steps", type=int, default=1_000_000)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1234)
    parser.add_argument("--json")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    args.games = [g for g in args.games.split(",") if g]
    parts = {"speed": part_speed, "agree": part_agree}
    unknown = [g for g in args.games if g not in GAMES] + [
        p for p in args.parts.split(",") if p not in parts
    ]
    if unknown:
        parser.error(f"unknown games or parts: {', '.join(unknown)}")
    if args.smoke:
        args.rounds, args.window, args.agree_steps = 1, 0.02, 200
        args.parts = "speed,agree"
    if not native.available():
        raise SystemExit(native.status())
    out: dict[str, Any] = {"about": spieltisch.about()}
    for part in args.parts.split(","):
        parts[part](args, out)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
