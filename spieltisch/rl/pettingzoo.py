"""PettingZoo AEC environments of the spieltisch games.

``env("awimbawe", players=2, render_mode="ansi", reward="returns", **options)`` is the AEC
environment of a game: agents ``player_0`` ... in seat order, each observation a dict of
``observation`` (the game's encoder, float32 in [-1, 1]; see ``docs/rl/<game>.md``) and
``action_mask`` (int8 over the game's stable action ids; all zeros for an agent not to move).
Chance is resolved inside :meth:`SpieltischAEC.step` from the table's generator, seeded by
``reset(seed=...)``, so a seeded reset replays exactly. Rewards come at the end (see
:mod:`spieltisch.rl.match`). :meth:`SpieltischAEC.action_masks` serves masked learners
(sb3-contrib's ``ActionMasker``). Auweier's deck steps are ordinary actions here: its
compound typing aid has no action id and is never offered. An illegal action id raises
:class:`~spieltisch.core.errors.IllegalActionError` (or ``InvalidActionError`` for an id that
names no action) and leaves the environment as it was.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from spieltisch.core.game import OptionValue
from spieltisch.rl.encode.base import HIGH, LOW
from spieltisch.rl.match import Mask, Match, Reward, game_of

RENDER_MODES = ("ansi",)


def env_name(game_id: str) -> str:
    """The environment's PettingZoo name, e.g. ``spieltisch_awimbawe_v0``."""
    return f"spieltisch_{game_id.replace('-', '_')}_v0"


class SpieltischAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment of one game (see the module docstring)."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        reward: Reward | str = Reward.RETURNS,
        **options: OptionValue,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None")
        self.game = game_of(game_id, players, dict(options))
        self.match = Match(self.game, reward)
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": env_name(game_id),
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{p}" for p in range(self.game.players)]
        self.agents = list(self.possible_agents)
        size = self.match.encoder.shape
        num = self.match.num_actions
        space = spaces.Dict(
            {
                "observation": spaces.Box(LOW, HIGH, size, np.float32),
                "action_mask": spaces.Box(0, 1, (num,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(num) for agent in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the game's action ids."""
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and action mask (zeros unless ``agent`` is to move)."""
        seat = self._seat(agent)
        match = self.match
        if match.to_act() == seat:
            mask = match.mask()
        else:
            mask = np.zeros(match.num_actions, dtype=np.int8)
        return {"observation": match.observation(seat), "action_mask": mask}

    def action_masks(self) -> Mask:
        """The mask of the agent to move (for sb3-contrib's masked learners)."""
        return self.match.mask()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; a ``seed`` makes it and every later unseeded reset reproducible."""
        del options
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self.match.reset(int(self._seeds.integers(2**63 - 1)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.match.to_act()
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def step(self, action: int | None) -> None:
        """Play ``action`` (an action id) for the agent to move; chance then acts inside."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.match.play_id(action)
        self._clear_rewards()
        if self.match.over:
            for seat, value in enumerate(self.match.rewards()):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            mover = self._seat(agent)
            self.agent_selection = self.possible_agents[(mover + 1) % len(self.possible_agents)]
        else:
            self._select()
        self._cumulative_rewards[agent] = 0.0
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table in plain text, in the game's words (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return self.match.render()

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game_id: str, **kwargs: Any) -> SpieltischAEC:
    """The environment without PettingZoo's checking wrappers."""
    return SpieltischAEC(game_id, **kwargs)


def env(game_id: str, **kwargs: Any) -> Any:
    """The AEC environment of ``game_id`` wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(game_id, **kwargs))
