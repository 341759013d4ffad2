"""Self-play in a league: a policy trained against its own past snapshots and the bots.

    python examples/self_play.py auf-die-eier          # 10 minutes of training (CPU time)
    python examples/self_play.py awimbawe              # its recipe (RECIPES): 30 minutes

Needs the ``train`` extra. The learner is the masked PPO of ``examples/train.py`` (its
factored action head where the game has action features, its network and recipe) playing
:class:`spieltisch.rl.SpieltischGym` in a rotating seat. What differs is who sits in the other
seats: at every game the opponents are drawn from a **league**,

* the learner's own past snapshots (``policy:FILE``, each a numpy policy file written every
  ``--snapshot-every`` steps; the latest ``--keep`` of them), with weight ``--self-weight``;
* the game's bots by name from the agent catalogue (``--bots heuristic,random``), sharing
  the rest of the weight equally.

**Engine.** Each game runs on the native core where the core is built and every opponent drawn
plays on a native state (the snapshots, fed their seat's native observation, and the bots
the core has natively, such as ``random`` and the Auf die Eier and Awimbawé ``heuristic``);
a game against any other bot runs on the Python engine. ``--engine python`` keeps every game on
the Python engine. The run prints which engine played how many games.

Training time is CPU time (this process's, one torch thread), so a busy machine stretches
the run instead of shortening what it learns. Every snapshot is also measured, training
paused, against the heuristic in the lab's arena
(seats rotated on shared deals, 95% intervals) and against random: the curve. Written to
``--out``: ``policy.npz``, ``snapshots/``, ``curve.json``, ``curve.png``.

**Rewards.** At the end of a game only (no shaping). ``--reward win_loss`` (the default, but
Awimbawé's recipe counts rounds with ``score_diff``):
+1 for a sole winner, -1 for every seat that did not win, 0 each for two tied winners,
PettingZoo classic's convention; ``returns``: the seat's share of the win (1 split among the
winners, OpenSpiel's returns); ``score_diff``: the final score minus the best other seat's,
over the game's score range. An illegal action never happens (the masks), so
``illegal_penalty`` never pays.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, cast

import gymnasium
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train

import spieltisch
from spieltisch import native
from spieltisch.core.game import Game
from spieltisch.lab import arena
from spieltisch.lab.summary import summarise
from spieltisch.rl import SpieltischGym
from spieltisch.rl.actions import action_features
from spieltisch.rl.gymnasium import plays_on_native


class League:
    """The pool the opponents are drawn from: snapshot files and bots, with weights."""

    def __init__(self, bots: list[str], self_weight: float, keep: int, seed: int) -> None:
        self.bots = bots
        self.self_weight = self_weight
        self.keep = keep
        self.snapshots: list[str] = []
        self.rng = np.random.default_rng(seed)
        self.drawn: dict[str, int] = {}
        self.engines: dict[str, int] = {}
        """Games started on each engine (``native``, ``python``)."""

    def add(self, path: Path) -> None:
        """A new snapshot joins; the oldest leaves beyond ``keep``."""
        self.snapshots = [*self.snapshots, f"policy:{path}"][-self.keep :]

    def draw(self) -> str:
        """One opponent: a snapshot (uniform among them) or a bot."""
        if self.snapshots and self.rng.random() < self.self_weight:
            spec = self.snapshots[int(self.rng.integers(len(self.snapshots)))]
            key = "snapshot"
        else:
            spec = key = self.bots[int(self.rng.integers(len(self.bots)))]
        self.drawn[key] = self.drawn.get(key, 0) + 1
        return spec


class LeagueSeats(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Draws the opponents of every game from the league before the game starts (the
    environment then picks the engine for that game) and counts the games per engine."""

    def __init__(self, env: SpieltischGym, league: League) -> None:
        super().__init__(env)
        self.league = league

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        inner = cast(SpieltischGym, self.env.unwrapped)
        inner.opponent_specs = tuple(self.league.draw() for _ in range(inner.game.players - 1))
        started = cast(tuple[Any, dict[str, Any]], self.env.reset(**kwargs))
        engine = "native" if inner.native else "python"
        self.league.engines[engine] = self.league.engines.get(engine, 0) + 1
        return started


def arena_rate(game: Game, policy: Path, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """The policy against ``opponent`` in the lab's arena (rotated seats, shared deals)."""
    spec = f"policy:{policy}"
    results = arena.run(arena.schedule(game, [spec, opponent], games, seed), 1)
    row = summarise(results, [spec, opponent], game=game.info.id, players=game.players).row(spec)
    low, high = row.win_rate_ci95
    return {"games": row.seats_played, "win_rate": row.win_rate, "low": low, "high": high}


class Snapshots(BaseCallback):
    """Every ``every`` steps: a snapshot joins the league and is measured (clock stopped)."""

    def __init__(self, game: Game, league: League, out: Path, args: argparse.Namespace) -> None:
        super().__init__()
        self.game, self.league, self.out, self.args = game, league, out, args
        self.budget = args.minutes * 60
        self.trained = 0.0
        self._since = time.process_time()
        self._next = args.snapshot_every
        self.points: list[dict[str, Any]] = []

    def snapshot(self) -> None:
        """Export, add to the league, measure against the heuristic and random."""
        self.trained += time.process_time() - self._since
        folder = self.out / "snapshots"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"step-{self.num_timesteps:09d}.npz"
        train.export(self.model, self.game.info.id, path, f"{self.num_timesteps} steps")
        self.league.add(path)
        point: dict[str, Any] = {"steps": self.num_timesteps, "minutes": self.trained / 60}
        for opponent in ("heuristic", "random"):
            seed = self.args.seed + len(self.points)
            point[opponent] = arena_rate(self.game, path, opponent, self.args.curve_games, seed)
        point["league_draws"] = dict(self.league.drawn)
        point["engines"] = dict(self.league.engines)
        self.points.append(point)
        print(
            f"{point['steps']:>8} steps {point['minutes']:5.1f} min  vs heuristic "
            f"{point['heuristic']['win_rate']:6.1%}  vs random {point['random']['win_rate']:6.1%}"
            f"  league {len(self.league.snapshots)} snapshots  games {engines(self.league)}",
            flush=True,
        )
        self._since = time.process_time()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.args.snapshot_every
            self.snapshot()
        return self.left() > 0

    def left(self) -> float:
        """The share of the training time still to go (the learning rate decays with it)."""
        return max(0.0, 1.0 - (self.trained + time.process_time() - self._since) / self.budget)


def engines(league: League) -> str:
    """The games started so far on each engine, in words."""
    return ", ".join(f"{count} {name}" for name, count in sorted(league.engines.items())) or "none"


def plot(points: list[dict[str, Any]], title: str, path: Path) -> None:
    """Win rate against the heuristic and random by training step, with 95% intervals."""
    matplotlib.use("Agg")
    figure, axes = plt.subplots(figsize=(7, 4.2))
    steps = [p["steps"] for p in points]
    for opponent, colour in (("heuristic", "tab:orange"), ("random", "tab:blue")):
        rates = [p[opponent] for p in points]
        axes.plot(steps, [r["win_rate"] for r in rates], color=colour, label=f"vs {opponent}")
        axes.fill_between(
            steps, [r["low"] for r in rates], [r["high"] for r in rates], color=colour, alpha=0.2
        )
    axes.axhline(0.5, linestyle="--", color="grey", linewidth=1)
    axes.set_xlabel("training steps (learner decisions)")
    axes.set_ylabel("win rate in the arena (95% interval)")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def describe_engine(game: Game, league: League, wanted: bool | None) -> str:
    """Which engine the league's games run on, in words: the native core for the snapshots
    and the bots it has natively, the Python engine for the others."""
    probe = SpieltischGym(game.info.id, players=game.players, native=wanted)
    core = probe.native_core
    if core is None:
        return "Python (" + ("asked for" if wanted is False else native.status()) + ")"
    python = [bot for bot in league.bots if not plays_on_native(core, bot)]
    text = "native core for the snapshots"
    native_bots = [bot for bot in league.bots if bot not in python]
    if native_bots:
        text += " and " + ", ".join(native_bots)
    if python:
        text += "; Python engine for games against " + ", ".join(python)
    return text


RECIPES: dict[str, dict[str, Any]] = {
    "awimbawe": {
        "minutes": 30.0,
        "snapshot_every": 250_000,
        "bots": "heuristic",
        "self_weight": 0.3,
        "reward": "score_diff",
    },
}
"""Each game's tried settings, the defaults when that game is trained (flags still win).
In Awimbawé a league of half snapshots, half the heuristic and random went on winning about a
quarter of its games against the heuristic; a league that meets the heuristic in seven games
of ten and counts the rounds won (``score_diff``) learns to beat it (docs/rl)."""


def arguments() -> argparse.Namespace:
    """The command line, with the game's recipe as its defaults."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=("auf-die-eier", "awimbawe", "auf-die-nuesse", "auweier"))
    parser.add_argument("--minutes", type=float, default=10.0, help="most training time")
    parser.add_argument("--snapshot-every", type=int, default=60_000)
    parser.add_argument("--keep", type=int, default=5, help="snapshots in the league")
    parser.add_argument("--self-weight", type=float, default=0.5)
    parser.add_argument("--bots", default="heuristic,random")
    parser.add_argument("--curve-games", type=int, default=200)
    parser.add_argument("--final-games", type=int, default=1_000)
    parser.add_argument(
        "--reward", choices=("win_loss", "returns", "score_diff"), default="win_loss"
    )
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--rollout", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--net", default="256,256")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--entropy", type=float, default=0.005)
    parser.add_argument(
        "--engine",
        choices=("auto", "python"),
        default="auto",
        help="auto: the native core wherever the opponents play on it; python: never",
    )
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None)
    known, _ = parser.parse_known_args()
    parser.set_defaults(**RECIPES.get(known.game, {}))
    return parser.parse_args()


def main() -> None:
    """Train in the league, measure, save."""
    args = arguments()
    torch.set_num_threads(1)
    torch.distributions.Distribution.set_default_validate_args(False)  # masks are checked
    game = spieltisch.load(args.game)
    out: Path = args.out or Path(__file__).resolve().parent / "out" / f"self-play-{args.game}"
    out.mkdir(parents=True, exist_ok=True)
    league = League(args.bots.split(","), args.self_weight, args.keep, args.seed)

    wanted = None if args.engine == "auto" else False

    def build() -> ActionMasker:
        env = SpieltischGym(
            args.game, seat="rotate", opponents="random", reward=args.reward, native=wanted
        )
        return ActionMasker(
            LeagueSeats(env, league), lambda e: cast(SpieltischGym, e.unwrapped).action_masks()
        )

    envs = DummyVecEnv([build] * args.envs)  # in this process: the league is shared
    print(f"engine: {describe_engine(game, league, wanted)}", flush=True)
    envs.seed(args.seed)
    snapshots = Snapshots(game, league, out, args)
    features = action_features(game)
    model = MaskablePPO(
        train.factored_policy(features) if features is not None else "MlpPolicy",
        envs,
        learning_rate=lambda _progress: args.lr * snapshots.left(),
        n_steps=args.rollout,
        batch_size=args.batch,
        n_epochs=args.epochs,
        gamma=0.995,
        ent_coef=args.entropy,
        policy_kwargs={"net_arch": [int(n) for n in args.net.split(",")]},
        seed=args.seed,
        device="cpu",
    )
    snapshots.init_callback(model)
    snapshots.snapshot()  # the untrained policy: the curve's first point, the league's first
    model.learn(total_timesteps=10**10, callback=snapshots)  # the callback stops it on time
    snapshots.snapshot()
    final_path = out / "policy.npz"
    train.export(model, game.info.id, final_path, f"self-play, {model.num_timesteps} steps")
    final = {
        "game": game.info.id,
        "steps": model.num_timesteps,
        "training_minutes": snapshots.trained / 60,
        "reward": args.reward,
        "league": {"bots": league.bots, "self_weight": args.self_weight, "keep": args.keep},
        "league_draws": league.drawn,
        "engines": league.engines,
        "steps_per_training_minute": model.num_timesteps / max(snapshots.trained / 60, 1e-9),
        "vs_heuristic": arena_rate(game, final_path, "heuristic", args.final_games, 10**6),
        "vs_random": arena_rate(game, final_path, "random", args.final_games, 10**6),
        "heuristic_vs_random": asdict(
            train.point(0, 0, "random", *train.win_rate(
                game, lambda s: train.make_agent("heuristic", game, s), "random",
                args.final_games, 10**6,
            ))
        ),
    }  # fmt: skip
    (out / "curve.json").write_text(
        json.dumps({"final": final, "curve": snapshots.points}, indent=2) + "\n"
    )
    plot(snapshots.points, f"{game.info.name}: self-play league", out / "curve.png")
    print(json.dumps(final, indent=2))


if __name__ == "__main__":
    main()
