"""Learn a policy for a spieltisch game with masked PPO, and draw its learning curve.

    python examples/train.py awimbawe            # 13 minutes of training, then 6,000 games
    python examples/train.py auf-die-eier        # its recipe: 14 minutes, factored head

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib). The learner is
sb3-contrib's MaskablePPO: PPO is the usual first choice for turn-based games with many
illegal actions, and its masked variant never samples an illegal action id, so no update is
spent learning what the rules already say. It plays the Gymnasium environment
``spieltisch.rl.SpieltischGym`` in a rotating seat against random opponents (by default
twelve environments stepped in worker processes; a game's recipe in ``RECIPES`` sets its own),
rewarded at the end by the score difference (in Awimbawé: +1 for a match won 2-0, +0.5 for
2-1, and so on; see docs/rl/README.md). Where :mod:`spieltisch.rl.actions` knows features of
a game's action ids (Auf die Eier), the policy's action head is factored over them.

Every ``--checkpoint`` steps the current policy is exported and played (training paused, its
clock stopped) against random and against the game's heuristic, seats rotated on shared deals,
for the curve; at the end the policy plays ``--final-games`` games against each, and the
heuristic plays the same games against random, for comparison. Written to ``--out``:
``policy.npz`` (played by :class:`spieltisch.rl.policy.PolicyAgent` with numpy alone),
``curve.json`` and ``curve.png``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

import gymnasium
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

import spieltisch
from spieltisch.agents import make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.game import Game
from spieltisch.lab.engine import derive_seed
from spieltisch.lab.stats import wilson_interval
from spieltisch.rl import SpieltischGym
from spieltisch.rl.actions import action_features
from spieltisch.rl.policy import Policy, PolicyAgent, save_policy
from spieltisch.session import Table, play_out


@dataclass(frozen=True)
class Point:
    """One point of the learning curve."""

    steps: int
    minutes: float
    opponent: str
    games: int
    win_rate: float
    low: float
    high: float


def masked_env(game_id: str, opponent: str, reward: str) -> Callable[[], ActionMasker]:
    """A builder of the learner's environment, with its action masks exposed to the learner."""

    def build() -> ActionMasker:
        env = SpieltischGym(game_id, seat="rotate", opponents=opponent, reward=reward)
        return ActionMasker(env, lambda e: cast(SpieltischGym, e.unwrapped).action_masks())

    return build


class FactoredHead(torch.nn.Module):
    """Action logits as ``features @ (W h + b)``: one weight row per feature, not per id.

    The features come from :func:`spieltisch.rl.actions.action_features`. In Auf die Eier a
    re-roll's logit is then a sum over the faces it throws, so what the policy learns about
    throwing two pots again carries over to every re-roll that does, instead of being learnt
    for each of 2,001 ids on its own.
    """

    def __init__(self, hidden: int, features: np.ndarray[Any, np.dtype[np.float32]]) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(hidden, features.shape[1])
        torch.nn.init.orthogonal_(self.linear.weight, gain=0.01)
        torch.nn.init.zeros_(self.linear.bias)
        self.register_buffer("features_t", torch.as_tensor(features).T.contiguous())

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        """The logits of every action id."""
        features_t = cast(torch.Tensor, self.features_t)
        logits: torch.Tensor = self.linear(hidden) @ features_t
        return logits

    def folded(self) -> tuple[Any, Any]:
        """The same head as one plain (weights, bias) layer over all ids, for the policy file."""
        features = cast(torch.Tensor, self.features_t).T.numpy()
        weights = self.linear.weight.detach().numpy()
        bias = self.linear.bias.detach().numpy()
        return features @ weights, features @ bias


def factored_policy(features: np.ndarray[Any, np.dtype[np.float32]]) -> type:
    """A masked actor-critic policy whose action head is a :class:`FactoredHead`."""

    class FactoredPolicy(MaskableActorCriticPolicy):
        def _build(self, lr_schedule: Any) -> None:
            super()._build(lr_schedule)
            self.action_net = FactoredHead(self.mlp_extractor.latent_dim_pi, features)
            make_optimizer: Any = self.optimizer_class
            self.optimizer = make_optimizer(
                self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
            )

    return FactoredPolicy


def export(model: Any, game_id: str, path: Path, note: str) -> None:
    """Write the actor (its hidden layers and action head) as a numpy policy file."""
    layers = [
        (module.weight.detach().numpy(), module.bias.detach().numpy())
        for module in model.policy.mlp_extractor.policy_net
        if isinstance(module, torch.nn.Linear)
    ]
    head: Any = model.policy.action_net
    if isinstance(head, FactoredHead):
        layers.append(head.folded())
    else:
        layers.append((head.weight.detach().numpy(), head.bias.detach().numpy()))
    save_policy(path, game_id, layers, note)


def win_rate(
    game: Game, seat_agent: Callable[[int], Agent[Any]], opponent: str, games: int, seed: int
) -> tuple[float, int]:
    """Total return of the seated agent over ``games`` games against ``opponent`` in every
    other seat: deals shared by every rotation of the seats, as the arena plays them."""
    players = game.players
    total, played = 0.0, 0
    deal = 0
    while played < games:
        deal_seed = derive_seed(seed, "deal", deal)
        for seat in range(players):
            if played >= games:
                break
            agents = [
                seat_agent(derive_seed(deal_seed, "learner", seat))
                if p == seat
                else make_agent(opponent, game, derive_seed(deal_seed, "seat", p, seat))
                for p in range(players)
            ]
            table = Table(game, seed=deal_seed)
            play_out(table, agents)
            total += table.state.returns()[seat]
            played += 1
        deal += 1
    return total, played


def point(steps: int, minutes: float, opponent: str, total: float, games: int) -> Point:
    """A curve point with its 95% Wilson interval."""
    low, high = wilson_interval(total, games)
    return Point(steps, minutes, opponent, games, total / games, low, high)


class Curve(BaseCallback):
    """Stops training when its time is up, and measures the policy every ``every`` steps."""

    def __init__(
        self, game: Game, out: Path, minutes: float, every: int, games: int, seed: int
    ) -> None:
        super().__init__()
        self.game, self.out, self.every, self.games, self.seed = game, out, every, games, seed
        self.budget = minutes * 60
        self.points: list[Point] = []
        self.trained = 0.0
        self._since = time.perf_counter()
        self._next = every

    def measure(self) -> None:
        """Play the current policy against random and the heuristic (clock stopped)."""
        self.trained += time.perf_counter() - self._since
        path = self.out / "policy.npz"
        export(self.model, self.game.info.id, path, f"{self.num_timesteps} steps")
        policy = Policy(path)
        for opponent in ("random", "heuristic"):
            total, games = win_rate(
                self.game,
                lambda s: PolicyAgent(self.game, s, policy),
                opponent,
                self.games,
                self.seed + len(self.points),
            )
            found = point(self.num_timesteps, self.trained / 60, opponent, total, games)
            self.points.append(found)
            print(
                f"{found.steps:>8} steps {found.minutes:5.1f} min  vs {opponent:9} "
                f"{found.win_rate:6.1%} [{found.low:.1%}, {found.high:.1%}]",
                flush=True,
            )
        self._since = time.perf_counter()

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next += self.every
            self.measure()
        return self.left() > 0

    def left(self) -> float:
        """The share of the training time still to go (the learning rate decays with it)."""
        spent = self.trained + time.perf_counter() - self._since
        return max(0.0, 1.0 - spent / self.budget)


def plot(points: list[Point], baselines: dict[str, float], title: str, path: Path) -> None:
    """The learning curve: win rate by training step, with 95% intervals."""
    matplotlib.use("Agg")
    figure, axes = plt.subplots(figsize=(7, 4.2))
    for opponent, colour in (("random", "tab:blue"), ("heuristic", "tab:orange")):
        mine = [p for p in points if p.opponent == opponent]
        steps = [p.steps for p in mine]
        axes.plot(steps, [p.win_rate for p in mine], color=colour, label=f"vs {opponent}")
        axes.fill_between(
            steps, [p.low for p in mine], [p.high for p in mine], color=colour, alpha=0.2
        )
    for label, value in baselines.items():
        axes.axhline(value, linestyle="--", color="grey", linewidth=1)
        axes.annotate(label, (0, value), textcoords="offset points", xytext=(4, 3), fontsize=8)
    axes.set_xlabel("training steps (learner decisions)")
    axes.set_ylabel("win rate (95% interval)")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)


RECIPES: dict[str, dict[str, Any]] = {
    "auf-die-eier": {
        "minutes": 14.0,
        "checkpoint": 100_000,
        "curve_games": 200,
        "threads": True,
        "envs": 16,
        "rollout": 256,
        "epochs": 6,
    },
}
"""Each game's tried settings, the defaults when that game is trained (flags still win).
Auf die Eier's factored head makes an update cheap and learns from few steps, so fewer
epochs and environments stepped in this process (no pipe per step) pay."""


def arguments() -> argparse.Namespace:
    """The command line, with the game's recipe as its defaults."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=("auf-die-eier", "awimbawe", "auf-die-nuesse", "auweier"))
    parser.add_argument("--minutes", type=float, default=13.0, help="most training time")
    parser.add_argument("--checkpoint", type=int, default=200_000)
    parser.add_argument("--curve-games", type=int, default=150)
    parser.add_argument("--final-games", type=int, default=2_000)
    parser.add_argument("--envs", type=int, default=12)
    parser.add_argument("--net", default="256,256", help="hidden layer sizes")
    parser.add_argument("--reward", choices=("returns", "score_diff"), default="score_diff")
    parser.add_argument(
        "--threads", action="store_true", help="step the envs in this process, not in workers"
    )
    parser.add_argument(
        "--lr", type=float, default=5e-4, help="learning rate (decays to 0 with the time left)"
    )
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--rollout", type=int, default=512, help="steps per env per update")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--entropy", type=float, default=0.005)
    parser.add_argument(
        "--head",
        choices=("auto", "plain", "factored"),
        default="auto",
        help="action head: one logit per id (plain) or from action features (auto: where known)",
    )
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    known, _ = parser.parse_known_args()
    parser.set_defaults(**RECIPES.get(known.game, {}))
    args = parser.parse_args()
    if args.head == "factored" and action_features(spieltisch.load(args.game)) is None:
        parser.error(f"no action features are known for {args.game}")
    return args


def build_model(
    args: argparse.Namespace, game: Game, time_left: Callable[[], float]
) -> MaskablePPO:
    """The learner over its vector of environments; its learning rate falls to 0 as the
    training time runs out (``time_left`` is the share to go), however fast the machine
    steps, so the last updates are the gentlest."""
    builders: list[Callable[[], gymnasium.Env[Any, Any]]] = [
        masked_env(game.info.id, "random", args.reward) for _ in range(args.envs)
    ]
    envs = DummyVecEnv(builders) if args.threads else SubprocVecEnv(builders)
    envs.seed(args.seed)
    features = action_features(game) if args.head != "plain" else None
    return MaskablePPO(
        factored_policy(features) if features is not None else "MlpPolicy",
        envs,
        learning_rate=lambda _progress: args.lr * time_left(),
        n_steps=args.rollout,
        batch_size=args.batch,
        n_epochs=args.epochs,
        gamma=0.995,
        ent_coef=args.entropy,
        policy_kwargs={"net_arch": [int(n) for n in args.net.split(",")]},
        seed=args.seed,
        device="cpu",
    )


def final_figures(
    game: Game, policy: Policy, steps: int, minutes: float, games: int
) -> dict[str, Any]:
    """The policy against random and the heuristic, and the heuristic against random, on the
    same deals."""
    final: dict[str, Any] = {"game": game.info.id, "training_minutes": minutes, "steps": steps}
    for opponent in ("random", "heuristic"):
        total, played = win_rate(
            game, lambda s: PolicyAgent(game, s, policy), opponent, games, 10**6
        )
        final[f"policy_vs_{opponent}"] = asdict(point(steps, 0, opponent, total, played))
    total, played = win_rate(
        game, lambda s: make_agent("heuristic", game, s), "random", games, 10**6
    )
    final["heuristic_vs_random"] = asdict(point(0, 0, "random", total, played))
    return final


def main() -> None:
    """Train, measure, save."""
    args = arguments()
    torch.set_num_threads(args.torch_threads)
    torch.distributions.Distribution.set_default_validate_args(False)  # masks are checked
    game = spieltisch.load(args.game)
    out: Path = args.out or Path(__file__).resolve().parent / "out" / args.game
    out.mkdir(parents=True, exist_ok=True)
    curve = Curve(game, out, args.minutes, args.checkpoint, args.curve_games, args.seed)
    model = build_model(args, game, curve.left)
    curve.init_callback(model)
    curve.measure()  # the untrained policy: the curve's first point
    model.learn(total_timesteps=10**10, callback=curve)  # the callback stops it on time
    curve.measure()
    policy = Policy(out / "policy.npz")
    final = final_figures(game, policy, model.num_timesteps, curve.trained / 60, args.final_games)
    baselines = {"heuristic vs random": final["heuristic_vs_random"]["win_rate"]}
    (out / "curve.json").write_text(
        json.dumps({"final": final, "curve": [asdict(p) for p in curve.points]}, indent=2)
    )
    plot(curve.points, baselines, f"{game.info.name}: masked PPO against random", out / "curve.png")
    print(json.dumps(final, indent=2))


if __name__ == "__main__":
    main()
