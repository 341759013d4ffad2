"""The Gymnasium environments pass Gymnasium's own environment checker for every game at
every player count, are registered, and run in sync and async vector environments."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from spieltisch.core.errors import OptionError
from spieltisch.rl import GYM_IDS, SpieltischGym
from tests.rl.conftest import CASES, GAMES


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_gymnasium_check_env(game_id: str, players: int) -> None:
    env = gym.make(GYM_IDS[game_id], players=players, render_mode="ansi")
    check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_registered_ids_make_the_games_environment(game_id: str) -> None:
    env = gym.make(GYM_IDS[game_id])
    assert isinstance(env.unwrapped, SpieltischGym)
    assert env.unwrapped.game.info.id == game_id
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert info["action_mask"].dtype == np.int8
    assert info["action_mask"].any()


def _episode(env: SpieltischGym, seed: int) -> tuple[float, int, bool]:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, truncated, info = env.step(action)
        assert not truncated
        assert "illegal" not in info
        total += reward
        steps += 1
    return total, steps, bool(env.match.over)


def test_a_masked_episode_ends_with_the_learners_return() -> None:
    env = SpieltischGym("awimbawe", seat=1, opponents="heuristic")
    total, steps, over = _episode(env, seed=3)
    assert over
    assert steps > 0
    assert total == env.match.table.state.returns()[1]
    assert env.seat == 1


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = SpieltischGym("auf-die-eier", players=2, illegal_penalty=-2.5)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-2.5, True, False, True)
    _, reward, terminated, _, _ = env.step(10**9)  # no action at all: also refused
    assert (reward, terminated) == (-2.5, True)


def test_rotating_seats_visit_every_seat_and_seeds_replay() -> None:
    env = SpieltischGym("auf-die-eier", players=3)
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
    assert seats == {0, 1, 2}
    assert _episode(env, seed=4) == _episode(env, seed=4)


def test_bad_seat_or_opponents_are_refused() -> None:
    with pytest.raises(OptionError):
        SpieltischGym("awimbawe", seat=2)
    with pytest.raises(OptionError):
        SpieltischGym("auf-die-eier", players=3, opponents=["random"])
    with pytest.raises(OptionError):
        SpieltischGym("awimbawe", opponents="no-such-agent")


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_vector_environments(vector: str) -> None:
    envs = gym.make_vec(GYM_IDS["awimbawe"], num_envs=2, vectorization_mode=vector)
    try:
        observations, infos = envs.reset(seed=9)
        size = envs.single_observation_space.shape
        assert size is not None
        assert observations.shape == (2, *size)
        rng = np.random.default_rng(9)
        for _ in range(30):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
            observations, rewards, terminated, truncated, infos = envs.step(actions)
            assert rewards.shape == terminated.shape == (2,)
            assert not truncated.any()
        assert envs.single_observation_space.contains(observations[0])
    finally:
        envs.close()


def test_registration_keeps_gymnasiums_env_checker_on() -> None:
    env = gym.make(GYM_IDS["awimbawe"])
    assert "PassiveEnvChecker" in str(env)


def test_same_step_autoreset_hands_out_the_new_games_mask() -> None:
    """With ``autoreset_mode=SAME_STEP`` the step that ends a game already returns the next
    game's observation and mask (the final ones in ``info``), so every mask has a legal id."""
    envs = gym.make_vec(
        GYM_IDS["awimbawe"],
        num_envs=2,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP},
    )
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in info["action_mask"]])
        _, _, terminated, _, info = envs.step(actions)
        assert all(mask.any() for mask in info["action_mask"])
        ended += int(terminated.sum())
    assert ended > 0


def test_human_rendering_prints_and_returns_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    env = SpieltischGym("awimbawe", render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert "to move" in capsys.readouterr().out
