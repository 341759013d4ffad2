"""The native batch plays the Python engine's rules: every row's recorded steps replay in the
Python engine with the same observation, mask, seat and rewards at every step, for every game
over a sample of its configurations, through autoresets; row ``i`` at ``seed`` is row 0 at
``seed + i`` on any number of threads; and the Gymnasium and PettingZoo faces over it give what
their Python-engine versions give, in the same shapes and dtypes."""

from __future__ import annotations

import os
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pytest

from spieltisch.core.errors import IllegalActionError, InvalidActionError, OptionError
from spieltisch.core.game import Game, State
from spieltisch.native import NativeGame
from spieltisch.native.build import extension
from spieltisch.rl.batch import BatchedGames, ParallelBatch, SpieltischVectorEnv
from spieltisch.rl.encode import encoder_for
from spieltisch.rl.match import ActionIds, Reward, final_rewards
from tests.native.agreement import REQUIRE_VARIABLE, Config, configs, require_native

require_native()
if not hasattr(extension(), "NativeBatch"):  # an extension built before the batch
    if os.environ.get(REQUIRE_VARIABLE):
        pytest.fail("the native core was built without its batch", pytrace=False)
    pytest.skip("the native core was built without its batch", allow_module_level=True)

GAMES = ("auf-die-eier", "auf-die-nuesse", "auweier", "awimbawe")
STEPS = 200
"""Batch steps per configuration, and then on until a game has ended (at most MAX_STEPS)."""
MAX_STEPS = 2000


def sampled(game_id: str) -> list[Config]:
    """Every player count at the defaults and about eight of the option configurations."""
    every = configs(game_id)
    defaults = [config for config in every if not config.options]
    others = [config for config in every if config.options]
    return defaults + others[:: max(1, len(others) // 8)]


CASES = [(game_id, config) for game_id in GAMES for config in sampled(game_id)]


class Replayed:
    """A native row's game followed in the Python engine, step by step."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.both = NativeGame(game)
        self.ids = ActionIds(game)
        self.encoder = encoder_for(game.info.id)
        self.state: State = game.initial_state()
        self.done = 0

    def follow(self, steps: list[int | tuple[int, ...]]) -> list[int | tuple[int, ...]]:
        """Apply the steps not applied yet; return them."""
        new = steps[self.done :]
        for step in new:
            self.state = self.state.apply(self.both.move_of(self.state, step))
        self.done = len(steps)
        return new

    def restart(self) -> None:
        self.state = self.game.initial_state()
        self.done = 0

    def mask(self) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        mask[self.ids.legal_ids(self.state.legal_actions())] = 1
        return mask

    def check_decision(self, seat: int, observation: Any, mask: Any) -> None:
        """The native row shows ``seat``'s decision as the Python engine does."""
        assert self.state.current_player() == seat
        expected = self.encoder.encode(self.state.view(seat))
        np.testing.assert_array_equal(observation, expected)
        np.testing.assert_array_equal(mask, self.mask())


def random_actions(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[Any]:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks], np.int64)


@pytest.mark.parametrize(("game_id", "config"), CASES, ids=str)
def test_every_native_row_replays_in_the_python_engine(game_id: str, config: Config) -> None:
    num = 3
    reward = ("returns", "win_loss", "score_diff")[len(str(config)) % 3]
    options: dict[str, Any] = dict(config.options)  # game options, none named as a keyword
    batch = BatchedGames(game_id, num, config.players, reward, native=True, record=True, **options)
    batch.reset(11)
    rows = [Replayed(batch.game) for _ in range(num)]
    rng = np.random.default_rng(3)
    ended = 0
    for row, replayed in enumerate(rows):
        replayed.follow(batch.history(row))
        replayed.check_decision(
            int(batch.current_player[row]), batch.observation[row], batch.action_mask[row]
        )
    step = 0
    while step < STEPS or (not ended and step < MAX_STEPS):
        step += 1
        actions = random_actions(batch.action_mask, rng)
        batch.step(actions)
        for row, replayed in enumerate(rows):
            if batch.terminated[row]:
                ended += 1
                new = replayed.follow(batch.history(row, last=True))
                assert new[0] == actions[row]
                assert replayed.state.is_terminal()
                paid = final_rewards(replayed.state, Reward(reward))
                np.testing.assert_allclose(batch.rewards[row], paid, rtol=1e-6)
                assert batch.final_scores[row].tolist() == list(replayed.state.scores())
                final = batch.final_states[row]
                assert final is not None and final.is_terminal()
                replayed.restart()
                replayed.follow(batch.history(row))
            else:
                assert not batch.rewards[row].any()
                assert replayed.follow(batch.history(row))[0] == actions[row]
            replayed.check_decision(
                int(batch.current_player[row]), batch.observation[row], batch.action_mask[row]
            )
    assert ended > 0


def _run(batch: BatchedGames, actions: list[npt.NDArray[np.int64]]) -> list[tuple[Any, ...]]:
    """The arrays after each step of ``actions`` (copies)."""
    seen = []
    for chosen in actions:
        batch.step(chosen)
        seen.append(
            tuple(
                a.copy()
                for a in (
                    batch.observation,
                    batch.action_mask,
                    batch.current_player,
                    batch.rewards,
                    batch.terminated,
                )
            )
        )
    return seen


@pytest.mark.parametrize("game_id", GAMES)
def test_row_i_at_a_seed_is_row_0_at_seed_plus_i_on_any_threads(game_id: str) -> None:
    num, seed, steps = 6, 20, 150
    wide = BatchedGames(game_id, num, native=True, threads=2)
    keeping = BatchedGames(game_id, num, native=True, record=True)
    singles = [BatchedGames(game_id, 1, native=True) for _ in range(num)]
    wide.reset(seed)
    keeping.reset(seed)
    for i, single in enumerate(singles):
        single.reset(seed + i)
    rng = np.random.default_rng(5)
    for _ in range(steps):
        np.testing.assert_array_equal(wide.observation, keeping.observation)
        for i, single in enumerate(singles):
            np.testing.assert_array_equal(wide.observation[i], single.observation[0])
            np.testing.assert_array_equal(wide.action_mask[i], single.action_mask[0])
            assert wide.current_player[i] == single.current_player[0]
        actions = random_actions(wide.action_mask, rng)
        wide.step(actions)
        keeping.step(actions)
        for i, single in enumerate(singles):
            single.step(actions[i : i + 1])
            np.testing.assert_array_equal(wide.rewards[i], single.rewards[0])
            assert wide.terminated[i] == single.terminated[0]
        np.testing.assert_array_equal(wide.rewards, keeping.rewards)


@pytest.mark.parametrize("native", [True, False])
def test_random_actions_are_legal_and_leave_the_games_alone(native: bool) -> None:
    batch, twin = (BatchedGames("auweier", 5, native=native) for _ in range(2))
    batch.reset(3)
    twin.reset(3)
    first = batch.random_actions(seed=1).copy()
    for _ in range(60):
        chosen = batch.random_actions()
        assert batch.action_mask[np.arange(5), chosen].all()
        batch.step(chosen)
        twin.step(chosen.copy())
        np.testing.assert_array_equal(batch.observation, twin.observation)
    batch.reset(3)
    np.testing.assert_array_equal(batch.random_actions(seed=1), first)


def test_a_seedless_reset_after_a_seeded_one_is_the_same_each_time() -> None:
    first, second = (BatchedGames("awimbawe", 3, native=True) for _ in range(2))
    for batch in (first, second):
        batch.reset(9)
        batch.reset()
    np.testing.assert_array_equal(first.observation, second.observation)


def test_an_illegal_or_unknown_action_is_refused_before_any_game_moves() -> None:
    batch = BatchedGames("awimbawe", 2, native=True, record=True)
    batch.reset(1)
    before = [batch.history(row) for row in range(2)]
    legal = int(np.flatnonzero(batch.action_mask[0])[0])
    illegal = int(np.flatnonzero(batch.action_mask[1] == 0)[0])
    with pytest.raises(IllegalActionError):
        batch.step([legal, illegal])
    with pytest.raises(InvalidActionError):
        batch.step([legal, 10**6])
    assert [batch.history(row) for row in range(2)] == before


def test_a_batch_steps_and_observes_only_after_a_reset() -> None:
    batch = BatchedGames("auf-die-eier", 2, native=True)
    with pytest.raises(OptionError):
        batch.step([0, 0])
    with pytest.raises(OptionError):
        batch.observe_all()
    assert (batch.random_actions() == -1).all()


def test_the_arrays_are_the_batchs_own_and_overwritten() -> None:
    batch = BatchedGames("auweier", 4, native=True)
    observation = batch.observation
    batch.reset(2)
    batch.step(random_actions(batch.action_mask, np.random.default_rng(0)))
    assert batch.observation is observation
    assert np.shares_memory(batch.observation, batch._native.observation)
    assert batch.observation.dtype == np.float32
    assert batch.action_mask.dtype == np.int8
    assert batch.current_player.dtype == np.int64
    assert batch.rewards.dtype == np.float32
    assert batch.terminated.dtype == np.bool_


def test_what_the_native_engine_does_not_take_is_refused() -> None:
    with pytest.raises(OptionError):
        BatchedGames("awimbawe", 2, native=False, threads=2)
    with pytest.raises(OptionError):
        SpieltischVectorEnv("awimbawe", 2, opponents="heuristic", native=True)
    assert not SpieltischVectorEnv("awimbawe", 2, opponents="heuristic").native
    with pytest.raises(OptionError):
        BatchedGames("awimbawe", 2, native=False).history(0)


VECTOR_CASES = (("auf-die-eier", 3), ("auf-die-nuesse", 2), ("auweier", 4), ("awimbawe", 2))


@pytest.mark.parametrize(("game_id", "players"), VECTOR_CASES)
def test_the_native_vector_env_replays_in_python_and_looks_like_the_python_one(
    game_id: str, players: int
) -> None:
    num = 3
    fast = SpieltischVectorEnv(game_id, num, players=players, native=True, record=True)
    slow = SpieltischVectorEnv(game_id, num, players=players, native=False)
    assert fast.native and not slow.native
    assert fast.observation_space == slow.observation_space
    assert fast.action_space == slow.action_space
    obs, info = fast.reset(seed=4)
    slow_obs, slow_info = slow.reset(seed=4)
    assert slow_obs.shape == obs.shape and slow_obs.dtype == obs.dtype
    rows = [Replayed(fast.game) for _ in range(num)]
    batch = fast._native
    rng = np.random.default_rng(8)
    ended = illegal_seen = 0
    for step in range(200):
        assert fast.observation_space.contains(obs)
        for key in ("action_mask", "seat"):
            assert info[key].dtype == slow_info[key].dtype
            assert info[key].shape == slow_info[key].shape
        assert {k for k in info if "final" not in k} == {k for k in slow_info if "final" not in k}
        for row, replayed in enumerate(rows):
            replayed.follow(batch.history(row))
            replayed.check_decision(int(info["seat"][row]), obs[row], info["action_mask"][row])
        actions = random_actions(info["action_mask"], rng)
        if step % 37 == 5:
            actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
        seats = info["seat"].copy()
        obs, rewards, terminated, truncated, info = fast.step(actions)
        _, slow_rewards, slow_terminated, slow_truncated, _ = slow.step(
            random_actions(slow.action_masks(), rng)
        )
        for mine, theirs in ((rewards, slow_rewards), (terminated, slow_terminated)):
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
        assert not truncated.any() and truncated.dtype == slow_truncated.dtype
        for row, replayed in enumerate(rows):
            if not terminated[row]:
                assert rewards[row] == 0.0
                continue
            ended += 1
            final = info["final_info"]
            assert {"final_obs", "_final_obs", "final_info", "_final_info"} <= set(info)
            assert {"action_mask", "_action_mask", "seat", "_seat"} <= set(final)
            assert final["seat"][row] == seats[row]
            if final.get("illegal", np.zeros(num, bool))[row]:
                illegal_seen += 1
                assert rewards[row] == fast.illegal_penalty
                replayed.follow(batch.history(row, last=True))
                assert not replayed.state.is_terminal()
                np.testing.assert_array_equal(final["action_mask"][row], replayed.mask())
            else:
                replayed.follow(batch.history(row, last=True))
                assert replayed.state.is_terminal()
                paid = final_rewards(replayed.state, fast.reward)[int(seats[row])]
                assert rewards[row] == pytest.approx(paid)
                assert not final["action_mask"][row].any()
            expected = replayed.encoder.encode(replayed.state.view(int(seats[row])))
            np.testing.assert_array_equal(info["final_obs"][row], expected)
            replayed.restart()
    assert illegal_seen > 0
    for row, state in enumerate(fast.states):
        assert state.current_player() == info["seat"][row]
    assert ended > illegal_seen or game_id == "auf-die-nuesse"


def test_a_fixed_learner_seat_is_kept_through_autoresets() -> None:
    envs = SpieltischVectorEnv("auf-die-eier", 4, players=3, seat=2, native=True, copy=False)
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(300):
        assert (info["seat"] == 2).all()
        _, _, terminated, _, info = envs.step(random_actions(info["action_mask"], rng))
        ended += int(terminated.sum())
    assert ended > 0


def test_the_native_parallel_batch_shows_every_seat_its_observation() -> None:
    num = 2
    env = ParallelBatch("auweier", num, players=3, native=True, record=True)
    observations, infos = env.reset(seed=6)
    rows = [Replayed(env.batch.game) for _ in range(num)]
    rng = np.random.default_rng(1)
    for _ in range(100):
        chosen = {agent: np.zeros(num, np.int64) for agent in env.possible_agents}
        for row, replayed in enumerate(rows):
            replayed.follow(env.batch.history(row))
            for seat, agent in enumerate(env.possible_agents):
                expected = replayed.encoder.encode(replayed.state.view(seat))
                np.testing.assert_array_equal(observations[agent][row], expected)
                moving = replayed.state.current_player() == seat
                assert infos[agent]["to_move"][row] == moving
                mask = replayed.mask() if moving else np.zeros_like(replayed.mask())
                np.testing.assert_array_equal(infos[agent]["action_mask"][row], mask)
                if moving:
                    chosen[agent][row] = rng.choice(np.flatnonzero(mask))
        observations, _, terminations, _, infos = env.step(chosen)
        for row, replayed in enumerate(rows):
            if terminations["player_0"][row]:
                replayed.restart()


def test_gymnasiums_vector_wrappers_read_the_native_autoreset() -> None:
    """Gymnasium's episode statistics wrapper counts the native rows' episodes as the Python
    engine's: same-step autoreset, every episode's return and length."""
    envs = gym.wrappers.vector.RecordEpisodeStatistics(
        SpieltischVectorEnv("awimbawe", 4, native=True, threads=2)
    )
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    returns: list[float] = []
    for _ in range(200):
        _, _, terminated, _, info = envs.step(random_actions(info["action_mask"], rng))
        if terminated.any():
            episode = info["episode"]
            returns.extend(episode["r"][terminated].tolist())
            assert (episode["l"][terminated] > 0).all()
    assert returns and set(returns) <= {0.0, 1.0}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_cut_at_the_step_limit_replays_to_its_final_observation(game_id: str) -> None:
    """A truncated native game's steps replay in the Python engine to an unfinished game whose
    learner sees the final observation and mask it was cut with; the row's next game starts
    from the beginning and shows its learner's decision as the Python engine does."""
    limit = 3
    envs = SpieltischVectorEnv(game_id, 4, max_episode_steps=limit, native=True, record=True)
    _, info = envs.reset(seed=9)
    rng = np.random.default_rng(4)
    cut = 0
    for _ in range(3 * limit):
        seats = info["seat"].copy()
        obs, rewards, _, truncated, info = envs.step(random_actions(info["action_mask"], rng))
        for row in np.flatnonzero(truncated):
            cut += 1
            replayed = Replayed(envs.game)
            replayed.follow(envs._native.history(row, last=True))
            assert not replayed.state.is_terminal() and rewards[row] == 0.0
            seat = int(seats[row])
            expected = replayed.encoder.encode(replayed.state.view(seat))
            np.testing.assert_array_equal(info["final_obs"][row], expected)
            if replayed.state.current_player() == seat:
                final_mask = info["final_info"]["action_mask"][row]
                np.testing.assert_array_equal(final_mask, replayed.mask())
            replayed.restart()
            replayed.follow(envs._native.history(row))
            replayed.check_decision(int(info["seat"][row]), obs[row], info["action_mask"][row])
    assert cut > 0
