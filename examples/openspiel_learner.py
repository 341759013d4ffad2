"""Train one of OpenSpiel's own learners on a spieltisch game, and draw its curve.

    python examples/openspiel_learner.py                # NFSP, 80,000 games of a small Auf die Eier
    python examples/openspiel_learner.py --algorithm a2c --episodes 20000 --eval-games 400
    python examples/openspiel_learner.py --game awimbawe --option rounds_to_win=1

Needs the ``openspiel`` extra (``pip install "spieltisch[openspiel]"``: open_spiel, dm-tree,
torch). The learner is OpenSpiel's PyTorch **NFSP** (``open_spiel.python.pytorch.nfsp``:
a DQN best response and a supervised average policy, one agent per seat, in self-play) or
one of its policy-gradient agents (``open_spiel.python.pytorch.policy_gradient``: ``a2c``,
``rpg``, ``qpg``). It plays the game as OpenSpiel sees it (``import spieltisch.rl.openspiel``
registers ``spieltisch_<game>``) through OpenSpiel's ``rl_environment.Environment``, with the
seat's observation tensor (the game's encoder of the seat's view) as its input; nothing of
spieltisch's own training code is used. The default configuration is a small game on purpose:
two players of Auf die Eier with five dice instead of nine (252 action ids instead of 2,002)
racing to 20 points instead of 100 (a handful of decisions a player and game), so that the
learner shows what it learns within minutes on a CPU.

At ``--checkpoints`` points of the run (the untrained networks first), training paused, the
learned policy (NFSP's average policy, or the policy-gradient agent's policy; each seat's
network plays its seat, its most likely legal action, or a draw from it with ``--sample``)
plays ``--eval-games`` games against uniform random and as many against the game's heuristic,
in the lab's arena (seats rotated on shared deals, 95% intervals). The heuristic also plays
random on the same deals, for scale. Written to ``--out``: ``curve.json`` and, where
matplotlib is installed (the ``train`` extra), ``curve.png``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

import spieltisch
from spieltisch.agents import REGISTERED, register_agent
from spieltisch.core.agent import Agent
from spieltisch.core.game import Game, Move
from spieltisch.lab import arena
from spieltisch.lab.summary import summarise
from spieltisch.rl.encode import encoder_for

EXTRA = 'pip install "spieltisch[openspiel]"'
ALGORITHMS = ("nfsp", "a2c", "rpg", "qpg")
SMALL = {"goal": 20, "dice": 5}
"""Auf die Eier's small configuration: five dice, a race to 20 points."""
LEARNER = "openspiel-learner"
"""The learned policy's name in the arena while it is measured."""

Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


class MissingExtraError(ImportError):
    """OpenSpiel, dm-tree or torch is not installed."""


def openspiel_modules() -> SimpleNamespace:
    """OpenSpiel's RL environment, its PyTorch learners and torch, imported on first use.

    Raises :class:`MissingExtraError` naming the extra to install when one is missing."""
    try:
        import pyspiel  # noqa: PLC0415
        import torch  # noqa: PLC0415
        import tree  # noqa: PLC0415  (dm-tree: OpenSpiel's NFSP imports it)
        from open_spiel.python import rl_environment  # noqa: PLC0415
        from open_spiel.python.pytorch import nfsp, policy_gradient  # noqa: PLC0415

        import spieltisch.rl.openspiel as registered  # noqa: PLC0415
    except ImportError as error:
        missing = error.name or str(error)
        raise MissingExtraError(
            f"the OpenSpiel learner needs open_spiel, dm-tree and torch ({missing} is not "
            f"installed): {EXTRA}"
        ) from error
    return SimpleNamespace(
        pyspiel=pyspiel,
        torch=torch,
        tree=tree,
        rl_environment=rl_environment,
        nfsp=nfsp,
        policy_gradient=policy_gradient,
        openspiel=registered,
    )


@dataclass(frozen=True)
class Config:
    """What to train, how long, and how to measure it."""

    game: str = "auf-die-eier"
    options: dict[str, Any] = field(default_factory=lambda: dict(SMALL))
    """The game's options and rule parameters (Auf die Eier's ``goal``, ...)."""
    players: int = 2
    algorithm: str = "nfsp"
    episodes: int = 80_000
    """Self-play games to train on."""
    checkpoints: int = 8
    """Measured points after the untrained one, evenly spread over the episodes."""
    eval_games: int = 500
    """Games against each opponent at every point (rounded up to whole deals)."""
    seed: int = 7
    hidden: tuple[int, ...] = (128,)
    greedy: bool = True
    """Measure the policy's most likely legal action (else a draw from the policy)."""
    anticipatory: float = 0.1
    """NFSP: the share of games a seat plays its best response (else its average policy)."""
    learning_rate: float = 0.001
    """NFSP: both networks' rate; policy gradient: the policy's (the critic's is ten times)."""
    optimizer: str = "adam"
    """Every network's optimizer, ``adam`` or ``sgd`` (OpenSpiel's names)."""
    learn_every: int = 16
    """NFSP: both networks learn once every this many of the seat's steps."""


def game_string(config: Config) -> str:
    """The OpenSpiel name of the configuration, e.g. ``spieltisch_auf_die_eier(goal=20,...)``."""
    from spieltisch.rl.openspiel import openspiel_name  # noqa: PLC0415  (needs pyspiel)

    params = {"players": config.players, **config.options}
    inner = ",".join(f"{key}={_param(value)}" for key, value in sorted(params.items()))
    return f"{openspiel_name(config.game)}({inner})"


def _param(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def make_agents(config: Config, modules: SimpleNamespace, env: Any) -> list[Any]:
    """One OpenSpiel learner per seat (OpenSpiel's self-play convention)."""
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = []
    for seat in range(config.players):
        if config.algorithm == "nfsp":
            agent = modules.nfsp.NFSP(
                seat,
                size,
                actions,
                hidden_layers_sizes=list(config.hidden),
                reservoir_buffer_capacity=200_000,
                anticipatory_param=config.anticipatory,
                batch_size=128,
                rl_learning_rate=config.learning_rate,
                sl_learning_rate=config.learning_rate,
                min_buffer_size_to_learn=1_000,
                learn_every=config.learn_every,
                optimizer_str=config.optimizer,
                replay_buffer_capacity=100_000,
                epsilon_start=0.06,
                epsilon_end=0.001,
                epsilon_decay_duration=config.episodes * 4,
                update_target_network_every=4_000,
                seed=config.seed * 10 + seat,
            )
        else:
            agent = modules.policy_gradient.PolicyGradient(
                seat,
                size,
                actions,
                loss_str=config.algorithm,
                hidden_layers_sizes=config.hidden,
                batch_size=16,
                pi_learning_rate=config.learning_rate,
                critic_learning_rate=config.learning_rate * 10,
                num_critic_before_pi=1,
                entropy_cost=0.01,
                optimizer_str=config.optimizer,
            )
        agents.append(agent)
    return agents


def policy_network(agent: Any, algorithm: str) -> Any:
    """The torch module of the policy that is measured: NFSP's average policy network, or the
    policy-gradient agent's torso and logits."""
    return agent._avg_network if algorithm == "nfsp" else agent.policy_logits_network


def layers_of(network: Any) -> Layers:
    """The network's linear layers as numpy ``(weights, bias)`` pairs, in order (ReLU
    between them, none after the last: OpenSpiel's MLPs)."""
    import torch  # noqa: PLC0415

    return [
        (m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
        for m in network.modules()
        if isinstance(m, torch.nn.Linear)
    ]


def logits(layers: Layers, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The network's output for one observation, in numpy (a frozen copy of the weights)."""
    hidden = observation
    for index, (weights, bias) in enumerate(layers):
        hidden = weights @ hidden + bias
        if index < len(layers) - 1:
            hidden = np.maximum(hidden, 0.0)
    return hidden


class LearnerAgent(Agent[Any]):
    """A frozen copy of the learned networks as a spieltisch agent: the seat's view encoded
    as OpenSpiel's observation tensor, the illegal ids masked, a legal id drawn from the
    softmax (or the most likely one, ``greedy``). Seat ``p`` plays with network ``p``."""

    name = LEARNER

    def __init__(self, game: Game, seed: int, seats: Sequence[Layers], greedy: bool) -> None:
        super().__init__(game, seed)
        self.seats = seats
        self.greedy = greedy
        self.encoder = encoder_for(game.info.id)
        self.ids = game.action_table()
        self.draws = np.random.default_rng(seed)

    def act(self, view: Any, legal: Sequence[Move]) -> Move:
        """The policy's move for the viewer's seat."""
        if len(legal) == 1:
            return legal[0]
        seat = view.viewer if view.viewer is not None else 0
        out = logits(self.seats[seat % len(self.seats)], self.encoder.encode(view))
        chosen = out[[self.ids.id_of(move) for move in legal]].astype(np.float64)
        if self.greedy:
            return legal[int(np.argmax(chosen))]
        weights = np.exp(chosen - chosen.max())
        return legal[int(self.draws.choice(len(legal), p=weights / weights.sum()))]


@contextmanager
def seated(seats: Sequence[Layers], greedy: bool) -> Iterator[str]:
    """The learned policy in the agent catalogue under :data:`LEARNER` for a while."""
    register_agent(LEARNER, lambda game, seed: LearnerAgent(game, seed, seats, greedy))
    try:
        yield LEARNER
    finally:
        REGISTERED.pop(LEARNER, None)


def rate(game: Game, agent: str, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """``agent`` against ``opponent`` in the lab's arena on the Python engine (seats rotated
    on shared deals): its games, win rate and 95% interval."""
    tasks = arena.schedule(game, [agent, opponent], games, seed)
    results = arena.run(tasks, 1, engine="python")
    row = summarise(results, [agent, opponent], game=game.info.id, players=game.players).row(agent)
    low, high = row.win_rate_ci95
    return {"games": row.seats_played, "win_rate": row.win_rate, "low": low, "high": high}


def evaluate(
    game: Game, seats: Sequence[Layers], config: Config, seed: int
) -> dict[str, dict[str, Any]]:
    """The learned policy against random and against the heuristic."""
    with seated(seats, config.greedy) as name:
        return {
            opponent: rate(game, name, opponent, config.eval_games, seed)
            for opponent in ("random", "heuristic")
        }


def train(
    config: Config, progress: Callable[[dict[str, Any]], None] | None = None
) -> dict[str, Any]:
    """Train the learner in self-play and measure it at every checkpoint; the curve."""
    if config.algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
    modules = openspiel_modules()
    torch = modules.torch
    torch.set_num_threads(1)
    game = spieltisch.load(config.game, config.players, **config.options)
    name = game_string(config)
    env = modules.rl_environment.Environment(
        name, observation_type=modules.rl_environment.ObservationType.OBSERVATION
    )
    env.seed(config.seed)
    agents = make_agents(config, modules, env)
    np.random.seed(config.seed)  # the learners draw their actions from numpy's global generator
    torch.manual_seed(config.seed)
    marks = sorted(
        {round(config.episodes * k / config.checkpoints) for k in range(config.checkpoints + 1)}
    )
    points: list[dict[str, Any]] = []
    trained, steps, episode = 0.0, 0, 0
    for mark in marks:
        start = time.process_time()
        while episode < mark:
            time_step = env.reset()
            while not time_step.last():
                seat = time_step.observations["current_player"]
                output = agents[seat].step(time_step)
                time_step = env.step([output.action])
                steps += 1
            for agent in agents:  # every seat sees the end and learns from it
                agent.step(time_step)
            episode += 1
        trained += time.process_time() - start
        seats = [layers_of(policy_network(agent, config.algorithm)) for agent in agents]
        point = {
            "episodes": episode,
            "steps": steps,
            "minutes": trained / 60,
            **evaluate(game, seats, config, config.seed + 1_000 * len(points)),
        }
        points.append(point)
        if progress is not None:
            progress(point)
    scale = rate(game, "heuristic", "random", config.eval_games, config.seed)
    return {
        "game": config.game,
        "openspiel_game": name,
        "config": {**asdict(config), "hidden": list(config.hidden)},
        "heuristic_vs_random": scale,
        "curve": points,
    }


def report(point: dict[str, Any]) -> None:
    """One line of progress."""
    parts = [
        f"{name} {point[name]['win_rate']:6.1%} "
        f"[{point[name]['low']:.1%}, {point[name]['high']:.1%}]"
        for name in ("random", "heuristic")
    ]
    print(
        f"{point['episodes']:>7} games {point['steps']:>8} steps {point['minutes']:5.1f} min"
        f"  vs {'  vs '.join(parts)}",
        flush=True,
    )


def plot(curve: dict[str, Any], path: Path) -> bool:
    """Win rate against random and the heuristic by training game, with 95% intervals;
    ``False`` (nothing written) where matplotlib is not installed."""
    try:
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        return False
    points = curve["curve"]
    episodes = [p["episodes"] for p in points]
    figure, axes = plt.subplots(figsize=(7, 4.2))
    for opponent, colour in (("random", "tab:blue"), ("heuristic", "tab:orange")):
        rates = [p[opponent] for p in points]
        axes.plot(episodes, [r["win_rate"] for r in rates], color=colour, label=f"vs {opponent}")
        axes.fill_between(
            episodes, [r["low"] for r in rates], [r["high"] for r in rates], color=colour, alpha=0.2
        )
    scale = curve["heuristic_vs_random"]["win_rate"]
    axes.axhline(scale, linestyle=":", color="tab:green", label="heuristic vs random")
    axes.axhline(0.5, linestyle="--", color="grey", linewidth=1)
    config = curve["config"]
    axes.set_xlabel("self-play training games")
    axes.set_ylabel("win rate in the arena (95% interval)")
    axes.set_ylim(0, 1)
    axes.set_title(f"OpenSpiel {config['algorithm'].upper()} on {curve['openspiel_game']}")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="auf-die-eier")
    parser.add_argument(
        "--option",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="a game option or rule parameter (default for Auf die Eier: goal=20, dice=5)",
    )
    parser.add_argument("--algorithm", choices=ALGORITHMS, default="nfsp")
    parser.add_argument("--episodes", type=int, default=80_000, help="self-play games")
    parser.add_argument("--checkpoints", type=int, default=8)
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument("--hidden", default="128", help="hidden layer sizes, e.g. 128,128")
    parser.add_argument("--lr", type=float, default=0.001)
    parser.add_argument("--optimizer", choices=("adam", "sgd"), default="adam")
    parser.add_argument("--learn-every", type=int, default=16)
    parser.add_argument(
        "--sample", action="store_true", help="measure draws from the policy, not its argmax"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=None)
    return parser.parse_args(argv)


def _value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def main(argv: Sequence[str] | None = None) -> None:
    """Train, measure, save."""
    args = arguments(argv)
    if args.option is None:
        options = dict(SMALL) if args.game == "auf-die-eier" else {}
    else:
        pairs = [item.partition("=") for item in args.option]
        options = {key: _value(value) for key, _, value in pairs}
    config = Config(
        game=args.game,
        options=options,
        algorithm=args.algorithm,
        episodes=args.episodes,
        checkpoints=args.checkpoints,
        eval_games=args.eval_games,
        seed=args.seed,
        hidden=tuple(int(n) for n in args.hidden.split(",")),
        greedy=not args.sample,
        learning_rate=args.lr,
        optimizer=args.optimizer,
        learn_every=args.learn_every,
    )
    try:
        openspiel_modules()
    except MissingExtraError as error:
        sys.exit(str(error))
    out: Path = args.out or Path(__file__).resolve().parent / "out" / f"openspiel-{args.algorithm}"
    out.mkdir(parents=True, exist_ok=True)
    print(f"training OpenSpiel's {config.algorithm} on {game_string(config)}", flush=True)
    curve = train(config, report)
    (out / "curve.json").write_text(json.dumps(curve, indent=2) + "\n")
    drawn = plot(curve, out / "curve.png")
    scale = curve["heuristic_vs_random"]
    print(
        f"heuristic vs random on the same deals: {scale['win_rate']:.1%} "
        f"[{scale['low']:.1%}, {scale['high']:.1%}]; written: {out / 'curve.json'}"
        + (f", {out / 'curve.png'}" if drawn else " (no matplotlib: no picture)")
    )


if __name__ == "__main__":
    main()
