"""A batched engine: N games of one game stepped together, for training loops.

Three faces over one loop:

* :class:`BatchedGames`, the engine (as pgx's ``step`` over a batch): every game's seat to
  move, its observation and action mask are written into preallocated arrays
  (``observation[N, size]``, ``action_mask[N, actions]``, ``current_player[N]``), the
  rewards of the games that ended at this step into ``rewards[N, players]``; a game that ends
  starts again in the same step (its last state kept in ``final_*``), so every row always
  holds a decision with at least one legal action.
* :class:`SpieltischVectorEnv`, Gymnasium's ``VectorEnv``: one learner per game against the
  game's agents (any string of the agent catalogue), ``autoreset_mode`` ``SAME_STEP``.
* :class:`ParallelBatch`, PettingZoo's parallel API over a batch: dicts by agent of arrays
  over the games; every agent's observation each step, the mask of the agent to move (zeros
  for the others), the action of the agent to move used.

**The same games as the single-game engine** (the Python engine, ``native=False``). Game
``i`` of a batch reset with ``seed`` is the game the single-game environment plays when reset
with ``seed + i`` (as Gymnasium's vector environments seed their copies): :class:`BatchedGames`
and :class:`ParallelBatch` play PettingZoo's AEC environment's games
(:mod:`spieltisch.rl.pettingzoo`), every later game of a row the AEC environment's next
unseeded reset; :class:`SpieltischVectorEnv` plays Gymnasium's ``SyncVectorEnv`` of
:class:`~spieltisch.rl.gymnasium.SpieltischGym` on the Python engine (``native=False``;
same-step autoreset). Tested step by step for
every game: observations, masks, rewards, seats.

What makes the Python engine faster than N single environments: the rules' states are stepped
directly with each game's own chance generator (what a session table draws, without its
version checks, event log and record), an observation is encoded straight into its row, a mask
row is set from the legal ids (remembered per legal tuple) and only its last ids are cleared.
What it cannot remove is the rules' own work per step: applying the move, chance, building the
seat's view, encoding it (``bench/envs.py`` prints the split).

**The native engine.** Where the native core plays the game, :class:`BatchedGames` and
:class:`ParallelBatch` step their games inside Rust (``native=None``, the default; ``True``
insists, ``False`` keeps the Python engine described above), and so does
:class:`SpieltischVectorEnv` when every opponent is ``"random"`` (the opponents then move
inside Rust; any other agent is Python code, and the Python engine serves). Same arrays, same
dtypes and shapes, same autoreset; ``threads`` steps the rows on that many threads (the same
games whatever the count). The native engine draws chance with its own generator, so its
games at a seed are not the ones above: row ``i`` at ``seed`` is row 0 at ``seed + i``, and
every row's steps (kept with ``record=True``) replay in the Python engine with the same
observations, masks, seats and rewards at every step (:mod:`spieltisch.rl.native_batch`).
Its opponents draw from the row's generator too, so a native :class:`SpieltischVectorEnv`
row is also row 0 at ``seed + i``, its learner's seat drawn there (``seat="rotate"``).

The arrays are the engine's own (the native batch's, handed out without copies), overwritten
at the next step: copy what must be kept (:class:`SpieltischVectorEnv` copies unless made with
``copy=False``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from spieltisch.agents import make_agent
from spieltisch.core.agent import Agent
from spieltisch.core.errors import OptionError
from spieltisch.core.game import Game, Move, OptionValue, State
from spieltisch.rl.encode import Encoder, encoder_for
from spieltisch.rl.encode.base import HIGH, LOW, Out
from spieltisch.rl.gymnasium import MAX_OPPONENT_MOVES, ROTATE, opponent_specs
from spieltisch.rl.match import ActionIds, Reward, final_rewards, game_of
from spieltisch.rl.native_batch import native_batch, only_random, replay, row_seeds, use_native

Floats = npt.NDArray[np.float32]
SEED_RANGE = 2**63 - 1
"""Game seeds are drawn below this, as the single-game environments draw them."""


class _Rows:
    """The engine's arrays and how a row is written (shared by the three faces)."""

    def __init__(self, game: Game, num_envs: int) -> None:
        self.game = game
        self.encoder: Encoder = encoder_for(game.info.id)
        self.ids = ActionIds(game)
        self.actions: Sequence[Move] = self.ids.actions
        self.num_actions = game.num_distinct_actions
        self.size = self.encoder.shape[0]
        self.observation: Floats = np.zeros((num_envs, self.size), np.float32)
        self.action_mask = np.zeros((num_envs, self.num_actions), np.int8)
        self._set: list[list[int]] = [[] for _ in range(num_envs)]
        self._arrays = list(self.observation)
        self._views = [cast(Out, row.data) for row in self.observation]
        self._masks = [row.data for row in self.action_mask]

    def write(self, row: int, state: State, seat: int | None, moving: bool) -> None:
        """Row ``row``: ``seat``'s observation of ``state`` and, if ``moving`` (``seat`` is to
        move), the mask of its legal ids (else zeros)."""
        self._arrays[row].fill(0.0)
        self.encoder.fill(state.view(seat), self._views[row])
        mask = self._masks[row]
        for action_id in self._set[row]:
            mask[action_id] = 0
        if moving:
            ids = self.ids.legal_ids(state.legal_actions())
            for action_id in ids:
                mask[action_id] = 1
            self._set[row] = ids
        else:
            self._set[row] = []


def _settle(state: State, rng: random.Random) -> State:
    """Let chance act until a player must decide or the game is over (as a table does)."""
    while state.is_chance():
        state = state.apply(state.sample_chance(rng))
    return state


class BatchedGames:
    """N games of one game stepped together (see the module docstring).

    ``players`` and the game's options as for every environment; ``reward`` as
    :mod:`spieltisch.rl.match` says (``returns``, ``win_loss``, ``score_diff``); ``native``
    picks the engine (``None``: the native one wherever the core plays the game), ``threads``
    the native engine's threads, ``record`` has it keep each row's steps (for
    :attr:`states`, :attr:`final_states` and :meth:`history`).
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        players: int | None = None,
        reward: Reward | str = Reward.RETURNS,
        *,
        native: bool | None = None,
        threads: int = 1,
        record: bool = False,
        **options: OptionValue,
    ) -> None:
        if num_envs < 1:
            raise OptionError("a batch needs at least one game")
        self.game = game_of(game_id, players, dict(options))
        self.num_envs = num_envs
        self.players = self.game.players
        self.reward = Reward(reward)
        self.native = use_native(self.game, native)
        """Whether the games are stepped inside the native core."""
        if threads != 1 and not self.native:
            raise OptionError("threads are the native engine's: the Python engine has one")
        self.record = record
        self._native: Any = None
        self._seeder = np.random.default_rng()
        self._policy = np.random.default_rng()
        if self.native:
            self._native = native_batch(self.game, num_envs, self.reward, "all", threads, record)
            fast = self._native
            self.observation: Floats = fast.observation
            self.action_mask: npt.NDArray[np.int8] = fast.action_mask
            self.current_player: npt.NDArray[np.int64] = fast.current_player
            self.rewards: Floats = fast.rewards
            self.terminated: npt.NDArray[np.bool_] = fast.terminated
            self.final_scores: npt.NDArray[np.int64] = fast.final_scores
        else:
            self._rows = _Rows(self.game, num_envs)
            self.observation = self._rows.observation
            self.action_mask = self._rows.action_mask
            self.current_player = np.zeros(num_envs, np.int64)
            self.rewards = np.zeros((num_envs, self.players), np.float32)
            self.terminated = np.zeros(num_envs, np.bool_)
            self.final_scores = np.zeros((num_envs, self.players), np.int64)
        self._final_states: list[State | None] = [None] * num_envs
        self._states: list[State] = [self.game.initial_state()] * num_envs
        self._rngs = [random.Random(0) for _ in range(num_envs)]
        self._seeders = [np.random.default_rng() for _ in range(num_envs)]

    # observation: the observation of the seat to move, one row per game; action_mask: its
    # legal action ids; current_player: its seat; rewards: each seat's reward paid at the last
    # step (only games that ended pay); terminated: which games ended at the last step (and
    # started again); final_scores: the scores of those games.

    @property
    def states(self) -> list[State]:
        """Every game's state now (the native engine's replayed in Python: needs ``record``)."""
        if self._native is None:
            return self._states
        return [replay(self.game, self.history(row)) for row in range(self.num_envs)]

    @property
    def final_states(self) -> list[State | None]:
        """The last state of each game that ended at the last step (else ``None``)."""
        if self._native is None:
            return self._final_states
        return [
            replay(self.game, self.history(row, last=True)) if self.terminated[row] else None
            for row in range(self.num_envs)
        ]

    def history(self, row: int, last: bool = False) -> list[int | tuple[int, ...]]:
        """The native engine's steps of game ``row`` so far (``last``: of the row's game that
        ended last): action ids and chance codes, as :meth:`NativeGame.replay` takes them.
        Needs the native engine made with ``record=True``."""
        if self._native is None or not self.record:
            raise OptionError("only a native batch made with record=True keeps its steps")
        steps: list[int | tuple[int, ...]] = self._native.history(row, last)
        return steps

    def reset(self, seed: int | None = None) -> None:
        """Start every game: game ``i`` from ``seed + i`` (see the module docstring)."""
        if self._native is not None:
            if seed is not None:
                self._seeder = np.random.default_rng(seed)
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
            self._native.reset(row_seeds(seeds, self._seeder))
            return
        for row in range(self.num_envs):
            if seed is not None:
                self._seeders[row] = np.random.default_rng(seed + row)
            self._start(row)
        self.rewards.fill(0.0)
        self.terminated.fill(False)

    def _start(self, row: int) -> None:
        rng = random.Random(int(self._seeders[row].integers(SEED_RANGE)))
        self._rngs[row] = rng
        state = _settle(self.game.initial_state(), rng)
        self._states[row] = state
        self._show(row, state)

    def _show(self, row: int, state: State) -> None:
        seat = state.current_player()
        self.current_player[row] = -1 if seat is None else seat
        self._rows.write(row, state, seat, seat is not None)

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> None:
        """Play ``actions[i]`` (an action id) for the seat to move in game ``i``; chance then
        acts; a game that ends pays its rewards and starts again. An action that is not legal
        raises the rules' :class:`~spieltisch.core.errors.IllegalActionError` (the games
        before it in the batch have moved; in the native engine none has)."""
        if self._native is not None:
            self._native.step(np.ascontiguousarray(actions, np.int64))
            return
        table = self._rows.actions
        rewards = self.rewards
        rewards.fill(0.0)
        self.terminated.fill(False)
        states = self._states
        for row in range(self.num_envs):
            state = _settle(states[row].apply(table[int(actions[row])]), self._rngs[row])
            if state.is_terminal():
                rewards[row] = final_rewards(state, self.reward)
                self.terminated[row] = True
                self.final_scores[row] = state.scores()
                self._final_states[row] = state
                self._start(row)
                continue
            states[row] = state
            self._show(row, state)

    def random_actions(self, seed: int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action id for each game (what a random agent plays), from
        a generator of the batch's own, not the games' (``seed``: restarted from it); the
        native engine's array is its own, overwritten at the next call."""
        if self._native is not None:
            chosen: npt.NDArray[np.int64] = self._native.random_actions(seed)
            return chosen
        if seed is not None:
            self._policy = np.random.default_rng(seed)
        rng = self._policy
        return np.array([rng.choice(np.flatnonzero(mask)) for mask in self.action_mask], np.int64)

    def observe(self, row: int, seat: int | None) -> Floats:
        """``seat``'s observation of game ``row`` now (a new array)."""
        if self._native is not None and seat is not None:
            return cast(Floats, self.observe_all()[seat, row].copy())
        return self._rows_encoder().encode(self.states[row].view(seat))

    def observe_all(self) -> npt.NDArray[np.float32]:
        """Every seat's observation of every game now, ``(players, N, size)`` (the native
        engine's array is its own, overwritten at the next call)."""
        if self._native is not None:
            every: npt.NDArray[np.float32] = self._native.observe_all()
            return every
        return np.stack(
            [
                np.stack([self.observe(row, seat) for row in range(self.num_envs)])
                for seat in range(self.players)
            ]
        )

    def _rows_encoder(self) -> Encoder:
        return self._rows.encoder if self._native is None else encoder_for(self.game.info.id)


class ParallelBatch:
    """PettingZoo's parallel API over a batch of games (see the module docstring): agents
    ``player_0`` ..., each value an array over the games; ``native``, ``threads`` and
    ``record`` as for :class:`BatchedGames`."""

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        players: int | None = None,
        reward: Reward | str = Reward.RETURNS,
        *,
        native: bool | None = None,
        threads: int = 1,
        record: bool = False,
        **options: OptionValue,
    ) -> None:
        self.batch = BatchedGames(
            game_id,
            num_envs,
            players,
            reward,
            native=native,
            threads=threads,
            record=record,
            **options,
        )
        self.num_envs = num_envs
        self.possible_agents = [f"player_{p}" for p in range(self.batch.players)]
        self.agents = list(self.possible_agents)
        size, actions = self.batch.observation.shape[1], self.batch.action_mask.shape[1]
        self._masks = np.zeros((self.batch.players, num_envs, actions), np.int8)
        space = spaces.Box(LOW, HIGH, (size,), np.float32)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """One game's observation of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the game's action ids."""
        return self.action_spaces[agent]

    def _outputs(self) -> tuple[dict[str, Floats], dict[str, dict[str, Any]]]:
        batch = self.batch
        observations: dict[str, Floats] = {}
        infos: dict[str, dict[str, Any]] = {}
        mover = batch.current_player
        every = batch.observe_all()
        for seat, agent in enumerate(self.possible_agents):
            observations[agent] = every[seat].copy()
            masks = self._masks[seat]
            masks.fill(0)
            moving = mover == seat
            masks[moving] = batch.action_mask[moving]
            infos[agent] = {"action_mask": masks.copy(), "to_move": moving}
        return observations, infos

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Floats], dict[str, dict[str, Any]]]:
        """Start every game (game ``i`` from ``seed + i``)."""
        del options
        self.batch.reset(seed)
        return self._outputs()

    def step(
        self, actions: Mapping[str, npt.NDArray[np.integer[Any]]]
    ) -> tuple[
        dict[str, Floats],
        dict[str, npt.NDArray[np.float32]],
        dict[str, npt.NDArray[np.bool_]],
        dict[str, npt.NDArray[np.bool_]],
        dict[str, dict[str, Any]],
    ]:
        """Play, in each game, the action of the agent to move there (the others' entries are
        not read); a game that ends pays and starts again in the same step."""
        batch = self.batch
        chosen = np.zeros(self.num_envs, np.int64)
        for seat, agent in enumerate(self.possible_agents):
            moving = batch.current_player == seat
            chosen[moving] = np.asarray(actions[agent])[moving]
        batch.step(chosen)
        observations, infos = self._outputs()
        rewards = {a: batch.rewards[:, p].copy() for p, a in enumerate(self.possible_agents)}
        ended = batch.terminated.copy()
        terminations = dict.fromkeys(self.possible_agents, ended)
        truncations = {a: np.zeros(self.num_envs, np.bool_) for a in self.possible_agents}
        return observations, rewards, terminations, truncations, infos


class SpieltischVectorEnv(VectorEnv[Any, Any, Any]):
    """Gymnasium's ``VectorEnv``: :class:`~spieltisch.rl.gymnasium.SpieltischGym`'s game, N at
    once, stepped by one loop (see the module docstring). Same arguments as the single
    environment, and ``copy`` (``False``: the arrays returned are the engine's own,
    overwritten at the next step). ``info["action_mask"]`` is the learners' masks, int8
    ``(N, actions)``; ``info["seat"]`` their seats.

    ``native`` (``None``: wherever it can) steps the games inside the native core, which plays
    only the ``"random"`` opponent (inside Rust); with any other opponent the Python engine
    serves (and ``native=True`` is refused). ``threads`` and ``record`` as for
    :class:`BatchedGames`.

    ``max_episode_steps`` (``None``: no limit; the registrations set the game's
    :data:`~spieltisch.rl.match.DECISIONS_PER_PLAYER`) truncates a game after that many of
    the learner's steps: ``truncated`` is set for it, nothing is paid, and it starts again in
    the same step like a finished one (its last observation in ``info["final_obs"]``, its mask
    then in ``info["final_info"]["action_mask"]``), on either engine."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        players: int | None = None,
        seat: int | str = ROTATE,
        opponents: str | Sequence[str] = "random",
        reward: Reward | str = Reward.RETURNS,
        illegal_penalty: float = -1.0,
        copy: bool = True,
        *,
        native: bool | None = None,
        threads: int = 1,
        record: bool = False,
        max_episode_steps: int | None = None,
        **options: OptionValue,
    ) -> None:
        game = game_of(game_id, players, dict(options))
        specs = opponent_specs(game, seat, opponents)
        if num_envs < 1:
            raise OptionError("a batch needs at least one game")
        if max_episode_steps is not None and max_episode_steps < 1:
            raise OptionError(f"max_episode_steps must be at least 1, not {max_episode_steps}")
        self.max_episode_steps = max_episode_steps
        """The learner's steps after which a game is truncated (``None``: never)."""
        self._steps = np.zeros(num_envs, np.int64)
        if native and not only_random(specs):
            raise OptionError("the native engine plays the random opponent only")
        self.native = use_native(game, native if only_random(specs) else False)
        """Whether the games are stepped inside the native core."""
        if threads != 1 and not self.native:
            raise OptionError("threads are the native engine's: the Python engine has one")
        self.game = game
        self.num_envs = num_envs
        self.reward = Reward(reward)
        self.illegal_penalty = float(illegal_penalty)
        self.seat_option = seat
        self.opponent_specs = tuple(specs)
        self.copy = copy
        self.record = record
        self._rows = _Rows(game, 1 if self.native else num_envs)
        self.single_observation_space = spaces.Box(LOW, HIGH, (self._rows.size,), np.float32)
        self.single_action_space = spaces.Discrete(self._rows.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._states: list[State] = [game.initial_state()] * num_envs
        self.seats = np.zeros(num_envs, np.int64)
        self._rngs = [random.Random(0) for _ in range(num_envs)]
        self._np_randoms: list[np.random.Generator] = [
            seeding.np_random()[0] for _ in range(num_envs)
        ]
        self._agents: list[list[Agent[Any] | None]] = [[] for _ in range(num_envs)]
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._observation = self._rows.observation
        self._mask = self._rows.action_mask
        self._native: Any = None
        self._seeder = np.random.default_rng()
        if self.native:
            seats = seat if seat == ROTATE else int(seat)
            self._native = native_batch(game, num_envs, self.reward, seats, threads, record)
            self._observation = self._native.observation
            self._mask = self._native.action_mask
            self.seats = self._native.current_player
            self._every = np.arange(num_envs)

    @property
    def states(self) -> list[State]:
        """Every game's state now (the native engine's replayed in Python: needs ``record``)."""
        if self._native is None:
            return self._states
        return [replay(self.game, self._history(row)) for row in range(self.num_envs)]

    def _history(self, row: int) -> list[int | tuple[int, ...]]:
        if not self.record:
            raise OptionError("only a native batch made with record=True keeps its steps")
        steps: list[int | tuple[int, ...]] = self._native.history(row, False)
        return steps

    # --- one game of the batch, as SpieltischGym plays it ----------------------------------

    def _start(self, row: int) -> None:
        rng = self._np_randoms[row]
        count = self.game.players
        option = self.seat_option
        seat = int(rng.integers(count)) if option == ROTATE else int(option)
        specs = iter(self.opponent_specs)
        self._agents[row] = [
            None if p == seat else make_agent(next(specs), self.game, int(rng.integers(2**31)))
            for p in range(count)
        ]
        self.seats[row] = seat
        self._rngs[row] = random.Random(int(rng.integers(SEED_RANGE)))
        first = _settle(self.game.initial_state(), self._rngs[row])
        self._states[row] = self._play_others(row, first)

    def _play_others(self, row: int, state: State) -> State:
        seat = int(self.seats[row])
        agents = self._agents[row]
        rng = self._rngs[row]
        for _ in range(MAX_OPPONENT_MOVES):
            player = state.current_player()
            if player is None or player == seat:
                return state
            agent = cast(Agent[Any], agents[player])
            view = state.view(player) if agent.reads_views else None
            state = _settle(state.apply(agent.act(view, state.legal_actions())), rng)
        raise OptionError(f"the opponents made {MAX_OPPONENT_MOVES} moves in one step")

    def _final(self, row: int, state: State) -> dict[str, Any]:
        """The last observation and info of a game, as the single environment gives them (the
        mask of a finished game is all zeros; after an illegal action it is the last one)."""
        seat = int(self.seats[row])
        mask = self._rows.action_mask[row].copy()
        if state.is_terminal():
            mask.fill(0)
        return {
            "observation": self._rows.encoder.encode(state.view(seat)),
            "action_mask": mask,
            "seat": seat,
        }

    # --- the vector API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Floats, dict[str, Any]]:
        """Start every game: game ``i`` from ``seed + i`` (or ``seed[i]``)."""
        del options
        self._steps.fill(0)
        if isinstance(seed, list):
            seeds = list(seed)
        else:
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        if self._native is not None:
            if isinstance(seed, int):
                self._seeder = np.random.default_rng(seed)
            self._native.reset(row_seeds(seeds, self._seeder))
            return self._out(self._observation), self._info()
        for row, row_seed in enumerate(seeds):
            if row_seed is not None:
                self._np_randoms[row] = seeding.np_random(row_seed)[0]
            self._start(row)
            self._rows.write(row, self._states[row], int(self.seats[row]), True)
        return self._out(self._rows.observation), self._info()

    def step(self, actions: Any) -> tuple[Floats, Any, Any, Any, dict[str, Any]]:
        """Play each learner's action; the others then play up to its next decision; a game
        that ends (or an action that is not legal, which ends it with ``illegal_penalty``, or
        one cut at ``max_episode_steps``) starts again in the same step, its last observation
        in ``info["final_obs"]``."""
        if self._native is not None:
            return self._native_step(actions)
        rewards = self._rewards
        rewards.fill(0.0)
        ended = self._terminated
        ended.fill(False)
        cut = self._truncated
        cut.fill(False)
        finals: dict[int, dict[str, Any]] = {}
        illegal: list[int] = []
        table = self._rows.actions
        mask = self._rows.action_mask
        for row in range(self.num_envs):
            action = int(actions[row])
            state = self._states[row]
            if not (0 <= action < len(table)) or not mask[row, action]:
                rewards[row] = self.illegal_penalty
                finals[row] = self._final(row, state)
                illegal.append(row)
            else:
                state = _settle(state.apply(table[action]), self._rngs[row])
                state = self._play_others(row, state)
                if not state.is_terminal():
                    self._states[row] = state
                    self._rows.write(row, state, int(self.seats[row]), True)
                    if not self._runs_out(row):
                        continue
                    cut[row] = True
                else:
                    rewards[row] = final_rewards(state, self.reward)[int(self.seats[row])]
                finals[row] = self._final(row, state)
            ended[row] = not cut[row]
            self._steps[row] = 0
            self._start(row)
            self._rows.write(row, self._states[row], int(self.seats[row]), True)
        info = self._info()
        if finals:
            info.update(self._finals(finals, illegal, ended | cut))
        return (
            self._out(self._rows.observation),
            self._out(rewards),
            self._out(ended),
            self._out(cut),
            info,
        )

    def _runs_out(self, row: int) -> bool:
        """Count one more of row ``row``'s learner steps: whether that reaches the limit."""
        self._steps[row] += 1
        return self.max_episode_steps is not None and self._steps[row] >= self.max_episode_steps

    def _native_step(self, actions: Any) -> tuple[Floats, Any, Any, Any, dict[str, Any]]:
        """:meth:`step` inside the native core (the learners' seats kept for the rewards)."""
        fast = self._native
        before = self.seats.copy()
        fast.step(np.ascontiguousarray(actions, np.int64))
        rewards = self._rewards
        rewards[:] = fast.rewards[self._every, before]
        illegal: npt.NDArray[np.bool_] = fast.illegal
        if illegal.any():
            rewards[illegal] = self.illegal_penalty
        ended: npt.NDArray[np.bool_] = fast.terminated
        cut = self._native_cut(ended)
        done = ended | cut
        info = self._info()
        if done.any():
            final_obs = np.empty(self.num_envs, object)
            for row in np.flatnonzero(done):
                final_obs[row] = fast.final_observation[row].copy()
            final_info: dict[str, Any] = {
                "action_mask": np.where(done[:, None], fast.final_mask, 0).astype(np.int8),
                "_action_mask": done.copy(),
                "seat": np.where(done, before, 0),
                "_seat": done.copy(),
            }
            if illegal.any():
                final_info["illegal"], final_info["_illegal"] = illegal.copy(), illegal.copy()
            info.update(
                {
                    "final_obs": final_obs,
                    "_final_obs": done,
                    "final_info": final_info,
                    "_final_info": done.copy(),
                }
            )
        return (
            self._out(self._observation),
            self._out(rewards),
            self._out(ended),
            self._out(cut),
            info,
        )

    def _native_cut(self, ended: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        """Count a learner step in every native row (a finished game's count starts again),
        and restart the rows that reach the limit: the truncated ones."""
        steps = self._steps
        steps += 1
        steps[ended] = 0
        cut = self._truncated
        if self.max_episode_steps is None:
            return cut
        np.greater_equal(steps, self.max_episode_steps, out=cut)
        if cut.any():
            self._native.restart(cut)
            steps[cut] = 0
        return cut

    def _finals(
        self, finals: dict[int, dict[str, Any]], illegal: list[int], ended: npt.NDArray[np.bool_]
    ) -> dict[str, Any]:
        """``final_obs`` and ``final_info`` as Gymnasium's same-step autoreset lays them out:
        an object array of the last observations, a dict of arrays over the games, each with
        its ``_key`` array of the games it holds."""
        final_obs = np.empty(self.num_envs, object)
        masks = np.zeros((self.num_envs, self._rows.num_actions), np.int8)
        seats = np.zeros(self.num_envs, np.int64)
        for row, final in finals.items():
            final_obs[row] = final["observation"]
            masks[row] = final["action_mask"]
            seats[row] = final["seat"]
        final_info: dict[str, Any] = {
            "action_mask": masks,
            "_action_mask": ended,
            "seat": seats,
            "_seat": ended,
        }
        if illegal:
            flags = np.zeros(self.num_envs, np.bool_)
            flags[illegal] = True
            final_info["illegal"], final_info["_illegal"] = flags, flags.copy()
        return {
            "final_obs": final_obs,
            "_final_obs": ended,
            "final_info": final_info,
            "_final_info": ended,
        }

    def _out(self, array: npt.NDArray[Any]) -> Any:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, np.bool_)
        return {
            "action_mask": self._out(self._mask),
            "_action_mask": every,
            "seat": self._out(self.seats),
            "_seat": every.copy(),
        }

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The learners' masks, int8 ``(N, actions)``."""
        return self._mask.copy()
