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
with Gymnasium's environment checker on, ``max_episode_steps`` set to the game's
:data:`~spieltisch.rl.match.DECISIONS_PER_PLAYER` (``gymnasium.make`` wraps the environment
in ``TimeLimit``, which truncates an episode after that many of the learner's steps, far more
than a game takes), and the batched engine as their vector entry point, which truncates alike:
``gymnasium.make_vec(id, num_envs=64, vectorization_mode="vector_entry_point")`` is
:class:`spieltisch.rl.batch.SpieltischVectorEnv`, stepped by one loop in same-step
autoreset. On the Python engine (``native=False``, or opponents other than ``random``) it plays
the same games as a ``SyncVectorEnv`` of this environment on the Python engine
(``native=False``); on the native core its games draw their chance from the core's own
generator, so they are other games of the same rules (each replays in the Python engine step
for step), as this environment's native episodes are (below).

**The native engine.** Where the native core plays the game (``native=None``, the default;
``True`` insists, ``False`` keeps the Python engine), an episode whose opponents can all play
on a native state runs on one: the core's state, its chance drawn from a core generator
seeded at every reset (from the environment's own generator, as the seat and the opponents'
seeds are), the observation and mask read from it (the encoder's numbers, the same legal ids).
The opponents that play there are the native agents of
:data:`~spieltisch.native.agents.NATIVE_AGENTS` by their bare names (``random``, and a game's
``heuristic`` or ``expert`` where listed), through the native roster, and ``policy:FILE``, fed
its seat's native observation and the legal ids. Any other opponent (``ismcts``, a name with a
setting) makes the episode a Python one, as before: the engine is chosen at every reset from
:attr:`SpieltischGym.opponent_specs` (a wrapper may change them between games), and
:attr:`SpieltischGym.native` says which one the current episode runs. A native episode is
another sample of the game than the Python one at the same seed (another generator); it
replays in the Python engine step for step with the same observations, masks and rewards, and
:attr:`SpieltischGym.match` is then that replay, built when read (to render, or to look).
"""

from __future__ import annotations

import functools
import itertools
import numbers
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from spieltisch import native
from spieltisch.agents import make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.errors import NativeError, OptionError
from spieltisch.core.game import Game, OptionValue
from spieltisch.native.agents import is_native, native_game, roster, supported
from spieltisch.native.face import NativeGame, NativeState, Step
from spieltisch.rl.encode import Array
from spieltisch.rl.encode.base import HIGH, LOW
from spieltisch.rl.learned import LEARNED, offers, policy_path
from spieltisch.rl.match import (
    DECISIONS_PER_PLAYER,
    FANCY_INDEX,
    Mask,
    Match,
    Reward,
    game_of,
    outcome_rewards,
)
from spieltisch.rl.policy import PolicyAgent
from spieltisch.rl.text import show
from spieltisch.session import Table

ROTATE = "rotate"
GYM_IDS = {
    "auf-die-eier": "spieltisch/AufDieEier-v0",
    "auf-die-nuesse": "spieltisch/AufDieNuesse-v0",
    "auweier": "spieltisch/Auweier-v0",
    "awimbawe": "spieltisch/Awimbawe-v0",
}
"""The registered Gymnasium id of each game."""
POLICY = "policy"
"""The agent name of a trained policy (``policy:FILE``), which plays on native states too."""
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


NativeOpponent = Callable[[NativeState, int], int]
"""An opponent of a native episode: the action id it plays for its seat at a native state."""


def native_core(game: Game, wanted: bool | None) -> NativeGame | None:
    """The native game beside ``game`` if episodes may run natively (``wanted``: ``None``
    wherever the core plays the game, ``False`` never); :class:`NativeError` if it is forced
    and the core cannot."""
    here = native.available() and game.info.id in native.games()
    if wanted and not here:
        raise NativeError(f"the native core does not play {game.info.id} in this installation")
    return native_game(game) if here and wanted is not False else None


@functools.lru_cache(maxsize=64)
def seats_natively(core: NativeGame, name: str) -> bool:
    """Whether the installed core's roster seats the agent ``name`` of ``core``'s game (an
    older build may lack an agent :data:`~spieltisch.native.agents.NATIVE_AGENTS` lists)."""
    if not is_native(core.python.info.id, name) or not supported():
        return False
    try:
        roster(core, (name,))
    except (NativeError, ValueError):
        return False
    return True


def plays_on_native(core: NativeGame, spec: str) -> bool:
    """Whether the opponent ``spec`` plays on a native state of ``core``'s game: a native agent
    by its bare name, or a policy file (``policy:FILE``, or ``learned`` where the game offers
    it: fed its seat's native observation)."""
    name, _, setting = spec.partition(":")
    if name == POLICY:
        return bool(setting)
    if name == LEARNED:
        return not setting and offers(core.python)
    return not setting and seats_natively(core, name)


def policy_spec(game: Game, spec: str) -> str:
    """``spec`` as a policy file's (``policy:FILE``): ``learned`` is the file shipped for
    ``game``; any other spec is itself."""
    path = policy_path(game.info.id) if spec == LEARNED else None
    return spec if path is None else f"{POLICY}:{path}"


def policy_agent(game: Game, spec: str) -> PolicyAgent:
    """The policy agent ``spec`` (``policy:FILE``) of ``game``, its file read once while it
    stays the same (its modification time and size): a policy agent keeps nothing between
    moves and draws no random number, so every seat and episode may share one (the league's
    snapshots are read once, not at every game). The catalogue's error for a missing or
    broken file."""
    path = Path(spec.partition(":")[2])
    try:
        found = path.stat()
    except (OSError, ValueError):
        stamp = (0, -1)  # make_agent says what is wrong
    else:
        stamp = (found.st_mtime_ns, found.st_size)
    return _policy_agent(game, spec, stamp)


@functools.lru_cache(maxsize=32)
def _policy_agent(game: Game, spec: str, stamp: tuple[int, int]) -> PolicyAgent:
    del stamp  # a changed file is another key
    agent = make_agent(spec, game, 0)
    if not isinstance(agent, PolicyAgent):  # pragma: no cover - the catalogue's policy
        raise OptionError(f"{spec!r} is no policy agent")
    return agent


def policy_opponent(agent: PolicyAgent) -> NativeOpponent:
    """A policy agent at a native state: its seat's observation there (the game's encoder's
    numbers for the seat's view) and the legal ids."""

    def act(state: NativeState, seat: int) -> int:
        return agent.act_encoded(state.observation(seat), state.legal_actions())

    return act


def roster_opponent(agents: Any, name: str, seed: int) -> NativeOpponent:
    """The native agent ``name`` of the roster ``agents`` (it reads the seat to move from the
    state); its ``k``-th move draws from a core generator seeded with ``seed`` and ``k``
    (``seed`` below 2**31). A core older than ``act_on`` replays the state's history."""
    moves = itertools.count(seed << 32)
    if not hasattr(agents, "act_on"):

        def replaying(state: NativeState, seat: int) -> int:
            del seat
            chosen: int = agents.act(name, state.history(), next(moves))
            return chosen

        return replaying

    def act(state: NativeState, seat: int) -> int:
        del seat
        chosen: int = agents.act_on(name, state, next(moves))
        return chosen

    return act


def mask_of(legal: list[int], size: int) -> Mask:
    """An int8 mask of ``size`` ids with the ``legal`` ones set (a new array)."""
    mask = np.zeros(size, np.int8)
    if len(legal) > FANCY_INDEX:
        mask[legal] = 1
    else:  # a few items are set faster one by one through a memoryview (int8 items)
        items = mask.data
        for action_id in legal:
            items[action_id] = 1
    return mask


class NativeMirror(Match):
    """A match whose table follows a native episode's steps in the Python engine (each step
    re-validated there): :attr:`SpieltischGym.match` in a native episode, brought up to date
    only when read."""

    def __init__(self, game: Game, reward: Reward, core: NativeGame) -> None:
        super().__init__(game, reward)
        self.core = core
        self.restart()

    def restart(self) -> None:
        """Back to the start of a game (a table with no dice: chance only as the steps say)."""
        self._table = Table(self.game)
        self._seen = 0
        self._followed = 0

    def follow(self, steps: Sequence[Step]) -> None:
        """Apply the native ``steps`` (from the start of the game) not applied yet."""
        table = self._table
        for step in steps[self._followed :]:
            if isinstance(step, tuple):
                table.advance_chance(self.core.move_of(table.state, step))
            else:
                table.play(self.game.action_from_id(step))
        self._followed = len(steps)


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
        *,
        native: bool | None = None,
        **options: OptionValue,
    ) -> None:
        self.game = game = game_of(game_id, players, dict(options))
        self.reward = Reward(reward)
        self._match = Match(game, self.reward)
        specs = opponent_specs(game, seat, opponents)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be 'human', 'ansi' or None")
        self.render_mode = render_mode
        self.seat_option = seat
        self.opponent_specs = tuple(specs)
        self.illegal_penalty = float(illegal_penalty)
        self.observation_space = spaces.Box(LOW, HIGH, self._match.encoder.shape, np.float32)
        self.action_space = spaces.Discrete(self._match.num_actions)
        self.seat = 0
        self._agents: list[Agent[Any] | None] = []
        self.native_option = native
        self._core = native_core(game, native)
        self.native = self._runs_natively()
        """Whether the current episode (the next one, before the first reset) runs on a
        native state; decided at every reset from :attr:`opponent_specs`."""
        self._state: NativeState | None = None
        self._rng: Any = None
        self._opponents: list[NativeOpponent | None] = []
        self._legal: list[int] = []
        self._mask: Mask = np.zeros(self._match.num_actions, np.int8)
        self._mirror: NativeMirror | None = None

    def _runs_natively(self) -> bool:
        """Whether an episode against :attr:`opponent_specs` runs natively (an
        :class:`OptionError` if ``native=True`` and an opponent cannot play there)."""
        core = self._core
        if core is None:
            return False
        missing = [spec for spec in self.opponent_specs if not plays_on_native(core, spec)]
        if missing and self.native_option:
            raise OptionError(f"the native engine cannot seat the opponent {missing[0]!r}")
        return not missing

    @property
    def match(self) -> Match:
        """The episode in the Python engine: the episode itself, or in a native episode its
        steps replayed there (a :class:`NativeMirror`, built when read)."""
        if not self.native or self._core is None:
            return self._match
        if self._mirror is None:
            self._mirror = NativeMirror(self.game, self.reward, self._core)
        if self._state is not None:
            self._mirror.follow(self._state.history())
        return self._mirror

    @property
    def native_core(self) -> NativeGame | None:
        """The native game episodes may run on (``None``: every episode is a Python one)."""
        return self._core

    @property
    def native_state(self) -> NativeState | None:
        """The native state of the current episode (``None`` in a Python one): the core's
        own, changed by every step (read it, or ``clone()`` it; :meth:`NativeGame.to_python`
        replays it)."""
        return self._state if self.native else None

    def _deal_seats(self) -> None:
        count = self.game.players
        rng = self.np_random
        option = self.seat_option
        self.seat = int(rng.integers(count)) if option == ROTATE else int(option)
        specs = iter(self.opponent_specs)
        seeds = [None if p == self.seat else int(rng.integers(2**31)) for p in range(count)]
        if self.native:
            self._opponents = [
                None if seed is None else self._native_opponent(next(specs), seed) for seed in seeds
            ]
            return
        self._agents = [
            None if seed is None else make_agent(next(specs), self.game, seed) for seed in seeds
        ]

    def _native_opponent(self, spec: str, seed: int) -> NativeOpponent:
        core = cast(NativeGame, self._core)
        name, _, _ = spec.partition(":")
        if name not in (POLICY, LEARNED):
            return roster_opponent(roster(core, (name,)), name, seed)
        return policy_opponent(policy_agent(self.game, policy_spec(self.game, spec)))

    def _play_others(self) -> None:
        match = self._match
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

    def _play_others_natively(self, state: NativeState) -> None:
        """Chance and the opponents up to the learner's decision or the end; then the
        learner's legal ids and mask."""
        rng = self._rng
        seat = self.seat
        opponents = self._opponents
        for _ in range(MAX_OPPONENT_MOVES):
            while state.is_chance():
                state.apply_random_chance(rng)
            player = state.current_player()
            if player is None or player == seat:
                self._legal = legal = [] if player is None else state.legal_actions()
                self._mask = mask_of(legal, self._match.num_actions)
                return
            opponent = opponents[player]
            if opponent is None:  # pragma: no cover - only the learner's seat has none
                return
            state.apply(opponent(state, player))
        raise OptionError(f"the opponents made {MAX_OPPONENT_MOVES} moves in one step")

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def _observation(self) -> Array:
        if self.native and self._state is not None:
            observation: Array = self._state.observation(self.seat)
            return observation
        return self._match.observation(self.seat)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        """Start a game: draw the learner's seat (if rotating) and play the others up to the
        learner's first decision (natively where every opponent can play there)."""
        super().reset(seed=seed)
        del options
        self.native = self._runs_natively()
        self._deal_seats()
        game_seed = int(self.np_random.integers(2**63 - 1))
        if self.native:
            core = cast(NativeGame, self._core)
            self._state = state = core.initial_state()
            self._rng = native.Rng(game_seed)
            if self._mirror is not None:
                self._mirror.restart()
            self._play_others_natively(state)
        else:
            self._match.reset(game_seed)
            self._play_others()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learner, then the others up to the learner's next turn."""
        if self.native and self._state is not None:
            return self._step_natively(self._state, action)
        match = self._match
        if match.over or not match.is_legal(action):
            return self._refused()
        match.play_id(action)
        self._play_others()
        done = match.over
        reward = match.rewards()[self.seat] if done else 0.0
        return match.observation(self.seat), float(reward), done, False, self._info()

    def _step_natively(
        self, state: NativeState, action: object
    ) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        if (
            type(action) is bool
            or not isinstance(action, numbers.Integral)
            or not 0 <= int(action) < len(self._mask)
            or not self._mask[int(action)]
        ):
            return self._refused()
        state.apply(int(action))
        self._play_others_natively(state)
        done = state.is_terminal()
        reward = 0.0
        if done:
            paid = outcome_rewards(state, self.reward, self.game.score_bounds)
            reward = paid[self.seat]
        return state.observation(self.seat), float(reward), done, False, self._info()

    def _refused(self) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        """An action that is not legal now (or after the end): the episode ends, penalised."""
        info = self._info()
        info["illegal"] = True
        return self._observation(), self.illegal_penalty, True, False, info

    def action_masks(self) -> Mask:
        """The learner's legal action ids as an int8 mask (a new array each time)."""
        if self.native:
            return self._mask.copy()
        return self._match.mask()

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
                max_episode_steps=DECISIONS_PER_PLAYER[game_id],
                vector_entry_point="spieltisch.rl.batch:SpieltischVectorEnv",
            )
