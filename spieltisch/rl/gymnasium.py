"""Gymnasium single-agent environments of the spieltisch games.

The learner sits in one seat (``seat=0``..., or ``seat="rotate"`` for a seat drawn at every
reset); the other seats are played by any of the game's agents (``opponents="random"``, a
name with a level such as ``"ismcts:200"``, or one spec per other seat). The observation is
the game's encoder (a float32 Box in [-1, 1]; see ``docs/rl/<game>.md``); the action is an
action id (Discrete). The legal ids come as ``info["action_mask"]`` (int8) and from
:meth:`SpieltischGym.action_masks` (for sb3-contrib's masked learners).

An action id that is not legal now ends the episode at once with reward ``illegal_penalty``
(-1 by default) and ``info["illegal"] = True``, instead of raising, so that unmasked learners
and ``gymnasium.utils.env_checker.check_env`` can step random actions. Otherwise the reward is
0 until the game ends and then the learner's reward of :mod:`spieltisch.rl.match`.

Registered as ``spieltisch/AufDieEier-v0``, ``spieltisch/AufDieNuesse-v0``,
``spieltisch/Auweier-v0`` and ``spieltisch/Awimbawe-v0`` when :mod:`spieltisch.rl` is imported,
with Gymnasium's environment checker on, and the batched engine as their vector entry point:
``gymnasium.make_vec(id, num_envs=64, vectorization_mode="vector_entry_point")`` is
:class:`spieltisch.rl.batch.SpieltischVectorEnv`, stepped by one loop in same-step
autoreset. On the Python engine (``native=False``, or opponents other than ``random``) it plays
the same games as a ``SyncVectorEnv`` of this environment; on the native core its games draw
their chance from the core's own generator, so they are other games of the same rules (each
replays in the Python engine step for step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from spieltisch.agents import make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, OptionValue
from spieltisch.rl.encode import Array
from spieltisch.rl.encode.base import HIGH, LOW
from spieltisch.rl.match import Mask, Match, Reward, game_of
from spieltisch.rl.text import show

ROTATE = "rotate"
GYM_IDS = {
    "auf-die-eier": "spieltisch/AufDieEier-v0",
    "auf-die-nuesse": "spieltisch/AufDieNuesse-v0",
    "auweier": "spieltisch/Auweier-v0",
    "awimbawe": "spieltisch/Awimbawe-v0",
}
"""The registered Gymnasium id of each game."""
MAX_OPPONENT_MOVES = 100_000
"""Opponent moves one step may make before the environment gives up (a runaway agent)."""


def opponent_specs(game: Game, seat: int | str, opponents: str | Sequence[str]) -> list[str]:
    """The agent string of every seat but the learner's (one string for all, or one per
    other seat), each tried now: an unknown name or setting, or a bad seat, is refused."""
    count = game.players
    if seat != ROTATE and (isinstance(seat, bool) or seat not in range(count)):
        raise OptionError(f"seat must be {ROTATE!r} or a seat from 0 to {count - 1}")
    specs = [opponents] * (count - 1) if isinstance(opponents, str) else list(opponents)
    if len(specs) != count - 1:
        raise OptionError(f"{count} players need {count - 1} opponents, not {len(specs)}")
    for spec in specs:
        make_agent(spec, game, 0)
    return specs


class SpieltischGym(gymnasium.Env[Array, np.int64]):
    """One game for one learner against the game's agents (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        seat: int | str = ROTATE,
        opponents: str | Sequence[str] = "random",
        reward: Reward | str = Reward.RETURNS,
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **options: OptionValue,
    ) -> None:
        self.game = game = game_of(game_id, players, dict(options))
        self.match = Match(game, reward)
        specs = opponent_specs(game, seat, opponents)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be 'human', 'ansi' or None")
        self.render_mode = render_mode
        self.seat_option = seat
        self.opponent_specs = tuple(specs)
        self.illegal_penalty = float(illegal_penalty)
        self.observation_space = spaces.Box(LOW, HIGH, self.match.encoder.shape, np.float32)
        self.action_space = spaces.Discrete(self.match.num_actions)
        self.seat = 0
        self._agents: list[Agent[Any] | None] = []

    def _deal_seats(self) -> None:
        count = self.game.players
        rng = self.np_random
        option = self.seat_option
        self.seat = int(rng.integers(count)) if option == ROTATE else int(option)
        specs = iter(self.opponent_specs)
        self._agents = [
            None if p == self.seat else make_agent(next(specs), self.game, int(rng.integers(2**31)))
            for p in range(count)
        ]

    def _play_others(self) -> None:
        match = self.match
        table = match.table
        for _ in range(MAX_OPPONENT_MOVES):
            player = match.to_act()
            if player is None or player == self.seat:
                return
            agent = self._agents[player]
            if agent is None:  # pragma: no cover - only the learner's seat has no agent
                return
            view = table.view(player) if agent.reads_views else None
            match.play_id(self.game.action_id(agent.act(view, table.legal())))
        raise OptionError(f"the opponents made {MAX_OPPONENT_MOVES} moves in one step")

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.match.mask(), "seat": self.seat}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Start a game: draw the learner's seat (if rotating) and play the others up to the
        learner's first decision."""
        super().reset(seed=seed)
        del options
        self._deal_seats()
        self.match.reset(int(self.np_random.integers(2**63 - 1)))
        self._play_others()
        return self.match.observation(self.seat), self._info()

    def step(self, action: np.int64 | int) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learner, then the others up to the learner's next turn."""
        match = self.match
        if match.over or not match.is_legal(action):
            info = self._info()
            info["illegal"] = True
            return match.observation(self.seat), self.illegal_penalty, True, False, info
        match.play_id(action)
        self._play_others()
        done = match.over
        reward = match.rewards()[self.seat] if done else 0.0
        return match.observation(self.seat), float(reward), done, False, self._info()

    def action_masks(self) -> Mask:
        """The learner's legal action ids as an int8 mask."""
        return self.match.mask()

    def render(self) -> str | None:
        """The table in plain text, in the game's words: returned (``render_mode="ansi"``)
        or printed in the terminal (``"human"``, with rich)."""
        if self.render_mode is None:
            return None
        text = self.match.render()
        if self.render_mode == "human":
            show(text, self.game.info.name)
            return None
        return text


def register_all() -> None:
    """Register every game under its id in :data:`GYM_IDS` (once)."""
    for game_id, gym_id in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(
                id=gym_id,
                entry_point="spieltisch.rl.gymnasium:SpieltischGym",
                kwargs={"game_id": game_id},
                vector_entry_point="spieltisch.rl.batch:SpieltischVectorEnv",
            )
