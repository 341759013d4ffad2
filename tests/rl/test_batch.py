"""The batched engine plays the single-game engine's games: the same seeds give the same games,
step by step (observations, masks, rewards, seats), for every game, through autoresets; and
its Gymnasium face passes Gymnasium's own checks. These pin the Python engine (``native=False``);
the native one is tested in ``test_native_batch.py``."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from spieltisch.core.errors import IllegalActionError, OptionError
from spieltisch.rl import GYM_IDS, SpieltischGym
from spieltisch.rl import pettingzoo as pz
from spieltisch.rl.batch import BatchedGames, ParallelBatch, SpieltischVectorEnv
from spieltisch.rl.match import DECISIONS_PER_PLAYER

BATCH_CASES = (
    ("auf-die-eier", 2),
    ("auf-die-eier", 4),
    ("auf-die-nuesse", 2),
    ("auf-die-nuesse", 3),
    ("auweier", 2),
    ("auweier", 4),
    ("awimbawe", 2),
)
STEPS = 600


def _aec_step(env: Any) -> tuple[np.ndarray, np.ndarray, int]:
    """Skip dead agents' steps; the mover's observation, mask and seat."""
    while True:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        seat = env.possible_agents.index(env.agent_selection)
        return observation["observation"], observation["action_mask"], seat


@pytest.mark.parametrize(("game_id", "players"), BATCH_CASES)
def test_batched_games_are_the_aec_environments_games(game_id: str, players: int) -> None:
    """Game ``i`` of a batch reset with ``seed`` is the AEC environment reset with
    ``seed + i``; every later game of the row is that environment's next reset."""
    num, seed = 3, 40
    batch = BatchedGames(game_id, num, players=players, reward="win_loss", native=False)
    batch.reset(seed)
    envs = [pz.env(game_id, players=players, reward="win_loss") for _ in range(num)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(STEPS):
        actions = []
        for i, env in enumerate(envs):
            observation, mask, seat = _aec_step(env)
            np.testing.assert_array_equal(batch.observation[i], observation)
            np.testing.assert_array_equal(batch.action_mask[i], mask)
            assert batch.current_player[i] == seat
            actions.append(int(rng.choice(np.flatnonzero(mask))))
        batch.step(actions)
        for i, env in enumerate(envs):
            env.step(actions[i])
            if batch.terminated[i]:
                ended += 1
                assert not env.agents or all(env.terminations.values())
                paid = [env.rewards[a] for a in env.possible_agents]
                np.testing.assert_allclose(batch.rewards[i], paid)
                assert batch.final_scores[i].tolist() == list(env.unwrapped.match.scores())
            else:
                assert not batch.rewards[i].any()
    assert ended > 0 or game_id == "auf-die-nuesse"


def test_an_illegal_batched_action_is_the_rules_error() -> None:
    batch = BatchedGames("awimbawe", 2)
    batch.reset(1)
    illegal = int(np.flatnonzero(batch.action_mask[0] == 0)[0])
    with pytest.raises(IllegalActionError):
        batch.step([illegal, int(np.flatnonzero(batch.action_mask[1])[0])])


@pytest.mark.parametrize(("game_id", "players"), BATCH_CASES)
def test_the_vector_env_is_a_same_step_sync_vector_env_of_the_gym_env(
    game_id: str, players: int
) -> None:
    num, seed = 3, 7
    fast = SpieltischVectorEnv(game_id, num, players=players, opponents="random", native=False)
    slow = gym.vector.SyncVectorEnv(
        [lambda: SpieltischGym(game_id, players=players, opponents="random", native=False)] * num,
        autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
    )
    obs_a, info_a = fast.reset(seed=seed)
    obs_b, info_b = slow.reset(seed=seed)
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(STEPS // 2):
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(info_a["action_mask"], info_b["action_mask"])
        np.testing.assert_array_equal(info_a["seat"], info_b["seat"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info_a["action_mask"]])
        if step % 97 == 5:  # now and then an illegal action, which ends the game
            actions[0] = int(np.flatnonzero(info_a["action_mask"][0] == 0)[0])
        obs_a, reward_a, term_a, trunc_a, info_a = fast.step(actions)
        obs_b, reward_b, term_b, trunc_b, info_b = slow.step(actions)
        np.testing.assert_array_equal(reward_a, reward_b)
        np.testing.assert_array_equal(term_a, term_b)
        np.testing.assert_array_equal(trunc_a, trunc_b)
        assert all(mask.any() for mask in info_a["action_mask"])
        assert set(info_a) == set(info_b)
        for i in np.flatnonzero(term_a):
            ended += 1
            np.testing.assert_array_equal(info_a["final_obs"][i], info_b["final_obs"][i])
        if term_a.any():
            final_a, final_b = info_a["final_info"], info_b["final_info"]
            assert set(final_a) == set(final_b)
            for key, value in final_a.items():
                np.testing.assert_array_equal(value, final_b[key])
    assert ended > 0


@pytest.mark.parametrize("native", [False, True])
def test_a_step_limit_truncates_as_gymnasiums_time_limit_does(native: bool) -> None:
    """With ``max_episode_steps`` the batch gives what a same-step ``SyncVectorEnv`` of the
    single environment under Gymnasium's own ``TimeLimit`` gives: the same truncations,
    final observations and masks, on the Python engine step for step; natively (other games
    of the same rules) every game is cut at the limit of the learner's steps, unpaid."""
    num, seed, limit = 3, 11, 7
    fast = SpieltischVectorEnv("auweier", num, players=3, max_episode_steps=limit, native=native)
    if native and not fast.native:
        pytest.skip("the native core does not play this here")
    slow = gym.vector.SyncVectorEnv(
        [
            lambda: gym.wrappers.TimeLimit(
                SpieltischGym("auweier", players=3, native=False), max_episode_steps=limit
            )
        ]
        * num,
        autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
    )
    obs_a, info_a = fast.reset(seed=seed)
    obs_b, info_b = slow.reset(seed=seed)
    rng = np.random.default_rng(3)
    taken = np.zeros(num, np.int64)
    cut = 0
    for _ in range(4 * limit):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info_a["action_mask"]])
        obs_a, reward_a, term_a, trunc_a, info_a = fast.step(actions)
        taken += 1
        done = term_a | trunc_a
        assert not (term_a & trunc_a).any()
        assert ("_final_obs" in info_a) == done.any()
        for row in np.flatnonzero(trunc_a):
            cut += 1
            assert taken[row] == limit and reward_a[row] == 0.0
            assert info_a["final_info"]["action_mask"][row].any()  # cut while a choice was open
            assert info_a["_final_obs"][row] and info_a["final_obs"][row].shape == obs_a[row].shape
        taken[done] = 0
        if native:
            continue
        obs_b, reward_b, term_b, trunc_b, info_b = slow.step(actions)
        np.testing.assert_array_equal(obs_a, obs_b)
        for mine, theirs in ((reward_a, reward_b), (term_a, term_b), (trunc_a, trunc_b)):
            np.testing.assert_array_equal(mine, theirs)
        for row in np.flatnonzero(term_a | trunc_a):
            np.testing.assert_array_equal(info_a["final_obs"][row], info_b["final_obs"][row])
            for key in ("action_mask", "seat"):
                np.testing.assert_array_equal(
                    info_a["final_info"][key][row], info_b["final_info"][key][row]
                )
    assert cut >= num  # Auweier at three players lasts far longer than seven decisions


def test_the_step_limit_is_at_least_one() -> None:
    with pytest.raises(OptionError, match="max_episode_steps"):
        SpieltischVectorEnv("awimbawe", 2, max_episode_steps=0)


@pytest.mark.parametrize("game_id", sorted(GYM_IDS))
def test_the_registrations_truncate_at_the_games_decision_bound(game_id: str) -> None:
    gym_id = GYM_IDS[game_id]
    assert gym.spec(gym_id).max_episode_steps == DECISIONS_PER_PLAYER[game_id]
    env = gym.make(gym_id)
    assert isinstance(env, gym.wrappers.TimeLimit)
    envs = gym.make_vec(gym_id, num_envs=2, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, SpieltischVectorEnv)
    assert envs.unwrapped.max_episode_steps == DECISIONS_PER_PLAYER[game_id]
    short = gym.make_vec(gym_id, 2, vectorization_mode="vector_entry_point", max_episode_steps=1)
    _, info = short.reset(seed=2)
    _, _, terminated, truncated, _ = short.step(
        np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    )
    assert (terminated | truncated).all() and truncated.any()


def test_the_registered_ids_make_the_batched_vector_env() -> None:
    envs = gym.make_vec(GYM_IDS["awimbawe"], num_envs=4, vectorization_mode="vector_entry_point")
    assert isinstance(envs.unwrapped, SpieltischVectorEnv)
    observations, info = envs.reset(seed=3)
    assert envs.observation_space.contains(observations)
    assert info["action_mask"].shape == (4, envs.unwrapped.game.num_distinct_actions)
    actions = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    observations, *_ = envs.step(actions)
    assert envs.observation_space.contains(observations)


def test_the_parallel_batch_is_pettingzoos_parallel_api_over_the_batch() -> None:
    num, seed = 2, 5
    env = ParallelBatch("auweier", num, players=3, native=False)
    observations, infos = env.reset(seed=seed)
    aecs = [pz.env("auweier", players=3) for _ in range(num)]
    for i, aec in enumerate(aecs):
        aec.reset(seed=seed + i)
    rng = np.random.default_rng(2)
    for _ in range(200):
        chosen = {agent: np.zeros(num, np.int64) for agent in env.possible_agents}
        for i, aec in enumerate(aecs):
            _, mask, seat = _aec_step(aec)
            agent = env.possible_agents[seat]
            for other in env.possible_agents:
                seen = aec.observe(other)
                np.testing.assert_array_equal(observations[other][i], seen["observation"])
                np.testing.assert_array_equal(infos[other]["action_mask"][i], seen["action_mask"])
            assert infos[agent]["to_move"][i]
            chosen[agent][i] = int(rng.choice(np.flatnonzero(mask)))
        observations, rewards, terminations, _, infos = env.step(chosen)
        for i, aec in enumerate(aecs):
            seat = aec.possible_agents.index(aec.agent_selection)
            aec.step(int(chosen[aec.agent_selection][i]))
            if terminations["player_0"][i]:
                paid = [aec.rewards[a] for a in aec.possible_agents]
                assert [rewards[a][i] for a in env.possible_agents] == paid
