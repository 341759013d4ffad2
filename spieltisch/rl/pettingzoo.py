"""PettingZoo AEC environments of the spieltisch games.

``env("awimbawe", players=2, render_mode="ansi", reward="returns", **options)`` is the AEC
environment of a game: agents ``player_0`` ... in seat order, each observation a dict of
``observation`` (the game's encoder, float32 in [-1, 1]; see ``docs/rl/<game>.md``) and
``action_mask`` (int8 over the game's stable action ids; all zeros for an agent not to move).
:meth:`SpieltischAEC.state` is the global state (every seat's observation, for centralised
critics); ``render_mode`` is ``"human"`` (printed with rich) or ``"ansi"`` (returned).
:func:`seat_agents` seats agents of the catalogue (the strings ``play`` and ``arena`` take)
in some of the environment's agents, e.g. the opponents of a learner.
Chance is resolved inside :meth:`SpieltischAEC.step` from the table's generator, seeded by
``reset(seed=...)``, so a seeded reset replays exactly. Rewards come at the end (see
:mod:`spieltisch.rl.match`). :meth:`SpieltischAEC.action_masks` serves masked learners
(sb3-contrib's ``ActionMasker``). Auweier's deck steps are ordinary actions here: its
compound typing aid has no action id and is never offered. An illegal action id raises
:class:`~spieltisch.core.errors.IllegalActionError` (or ``InvalidActionError`` for an id that
names no action) and leaves the environment as it was.

Speed (``bench/envs.py``; ``docs/rl/README.md``): an observation is built only for the agent
that asks (``last()`` asks for the agent to move), from one view and the legal actions the
state already keeps; between the first move and the end no reward dict is touched (rewards
come at the end only); and :func:`env` wraps in :class:`OrderEnforcing`, PettingZoo's
order-enforcing wrapper with its hot calls reaching the environment directly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

from spieltisch.agents import make_agent
from spieltisch.core.game import OptionValue
from spieltisch.rl.encode.base import HIGH, LOW
from spieltisch.rl.match import Mask, Match, Reward, game_of
from spieltisch.rl.text import show

RENDER_MODES = ("human", "ansi")


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
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._no_mask = np.zeros(self.match.num_actions, dtype=np.int8)
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
        self.state_space = spaces.Box(LOW, HIGH, (self.game.players * size[0],), np.float32)
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

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and action mask (zeros unless ``agent`` is to move), built
        only when asked for (``last()`` asks for the agent to move only); the caller's own
        arrays."""
        seat = self._seats[agent]
        match = self.match
        mask = match.mask() if match.to_act() == seat else self._no_mask.copy()
        return {"observation": match.observation(seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The observation, cumulative reward, termination, truncation and info of the agent
        to move (:meth:`AECEnv.last`, without its attribute look-ups)."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

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
        match = self.match
        match.play_id(action)
        self._cumulative_rewards[agent] = 0.0
        if match.over:
            self._clear_rewards()
            for seat, value in enumerate(match.rewards()):
                self.rewards[self.possible_agents[seat]] = value
            self.terminations = dict.fromkeys(self.agents, True)
            mover = self._seats[agent]
            self.agent_selection = self.possible_agents[(mover + 1) % len(self.possible_agents)]
            self._accumulate_rewards()
            return
        # Rewards come at the end only: until then every reward is already 0 (set at reset,
        # and no reward is paid before the game ends), so there is nothing to clear or add.
        mover_next = match.to_act()
        if mover_next is not None:
            self.agent_selection = self.possible_agents[mover_next]

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The global state, for centralised critics (never an agent's observation): every
        seat's observation in seat order, one after the other (together they hold all the
        game shows anyone: every hand, every public part), a Box of ``state_space``."""
        match = self.match
        return np.concatenate([match.observation(seat) for seat in range(self.game.players)])

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

    def close(self) -> None:
        """Nothing to release."""


class SeatedAgent:
    """An agent of the catalogue (any string ``play`` and ``arena`` take: ``heuristic``,
    ``ismcts:0.5s``, ``policy:FILE``, ``openspiel-mcts:2s``) playing one PettingZoo agent of
    a spieltisch environment: call it when that agent is to move; it answers an action id
    from its seat's view and legal moves only, never the true state."""

    def __init__(self, env: Any, agent: str, spec: str, seed: int = 0) -> None:
        inner: SpieltischAEC = env.unwrapped
        self.env = inner
        self.seat = inner.possible_agents.index(agent)
        self.spec = spec
        self.agent = make_agent(spec, inner.game, seed)

    def __call__(self) -> int:
        """The agent's action id now (it must be its turn)."""
        match = self.env.match
        if match.to_act() != self.seat:
            raise ValueError(f"{self.env.possible_agents[self.seat]} is not to move")
        table = match.table
        view = table.view(self.seat) if self.agent.reads_views else None
        return self.env.game.action_id(self.agent.act(view, table.legal()))


def seat_agents(env: Any, specs: dict[str, str], seed: int = 0) -> dict[str, SeatedAgent]:
    """:class:`SeatedAgent` for each PettingZoo agent named in ``specs`` (agent -> spec),
    e.g. ``seat_agents(env, {"player_1": "heuristic"})``; each seat its own seed."""
    return {
        agent: SeatedAgent(env, agent, spec, seed + index)
        for index, (agent, spec) in enumerate(specs.items())
    }


def raw_env(game_id: str, **kwargs: Any) -> SpieltischAEC:
    """The environment without PettingZoo's checking wrappers."""
    return SpieltischAEC(game_id, **kwargs)


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with the same checks, but the loop's hot calls
    (``last``, ``step``, ``agent_selection``, ``agents``) reach the environment directly
    instead of through two ``__getattr__`` look-ups each."""

    @property
    def agents(self) -> list[str]:
        """The agents still in the game (an error before ``reset``)."""
        if self._has_reset:
            return self.env.agents  # type: ignore[no-any-return]
        raise AttributeError("agents cannot be accessed before reset")

    @property
    def agent_selection(self) -> str:
        """The agent to act (an error before ``reset``)."""
        if self._has_reset:
            return self.env.agent_selection  # type: ignore[no-any-return]
        raise AttributeError("agent_selection cannot be accessed before reset")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The environment's ``last`` (an error before ``reset``)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        """The environment's ``step``, with the wrapper's checks and warnings."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


def env(game_id: str, **kwargs: Any) -> Any:
    """The AEC environment of ``game_id`` wrapped in (a faster) PettingZoo order-enforcing
    wrapper."""
    return OrderEnforcing(raw_env(game_id, **kwargs))
