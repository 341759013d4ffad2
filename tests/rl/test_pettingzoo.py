"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests for every game at
every player count, and keep the promises of their docstring."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

from spieltisch.core.errors import IllegalActionError, InvalidActionError
from spieltisch.rl import pettingzoo as pz
from tests.rl.conftest import CASES


def _play_to_end(env: Any, seed: int) -> tuple[dict[str, float], int]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return rewards, steps


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pettingzoo_api_and_seed_tests(game_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns that Dict observations are unusual
        api_test(pz.env(game_id, players=players), num_cycles=200)
        seed_test(lambda: pz.env(game_id, players=players), num_cycles=200)
    rewards, steps = _play_to_end(pz.env(game_id, players=players), seed=11)
    assert steps > 0
    assert sum(rewards.values()) == pytest.approx(1.0)


def test_seeded_resets_replay_and_seeds_differ() -> None:
    env = pz.env("auf-die-eier", players=3)
    first = _play_to_end(env, seed=5)
    again = _play_to_end(env, seed=5)
    other = [_play_to_end(env, seed=s)[1] for s in (6, 7, 8)]
    assert first == again
    assert any(steps != first[1] for steps in other)


def test_score_difference_rewards() -> None:
    env = pz.env("auf-die-eier", players=2, reward="score_diff")
    rewards, _ = _play_to_end(env, seed=3)
    scores = env.unwrapped.match.scores()
    span = env.unwrapped.game.info.max_score - env.unwrapped.game.info.min_score
    assert rewards["player_0"] == pytest.approx((scores[0] - scores[1]) / span)
    assert rewards["player_1"] == pytest.approx(-rewards["player_0"])


def test_masks_match_the_legal_actions_and_only_the_mover_has_one() -> None:
    env = pz.env("awimbawe")
    env.reset(seed=2)
    inner = env.unwrapped
    mover = env.agent_selection
    observation = env.observe(mover)
    legal = inner.match.table.legal()
    expected = sorted(inner.game.action_id(move) for move in legal)
    assert observation["action_mask"].dtype == np.int8
    assert list(np.flatnonzero(observation["action_mask"])) == expected
    assert list(np.flatnonzero(inner.action_masks())) == expected
    other = next(a for a in env.agents if a != mover)
    assert not env.observe(other)["action_mask"].any()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = pz.env("awimbawe")
    env.reset(seed=2)
    inner = env.unwrapped
    mask = inner.action_masks()
    version = inner.match.table.version
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(InvalidActionError):
        env.step(inner.match.num_actions)
    assert inner.match.table.version == version
    assert list(inner.action_masks()) == list(mask)


def test_options_reach_the_game() -> None:
    env = pz.env("awimbawe", tie_break="seat1", blind_pick_shown=True)
    assert env.unwrapped.game.options["tie_break"] == "seat1"
    assert env.unwrapped.metadata["name"] == "spieltisch_awimbawe_v0"


def test_ansi_render_says_the_moves_in_the_games_words() -> None:
    env = pz.env("awimbawe", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert "dealt" in text  # the deal, said by the game's words
    assert "to move:" in text
    assert "[" not in text.split("to move:")[0].splitlines()[1]  # an event line, not a move
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    later = env.render()
    assert "dealt" not in later  # only the moves since the last render


def test_auweier_deck_steps_are_ordinary_actions() -> None:
    env = pz.env("auweier", players=2)
    env.reset(seed=1)
    inner = env.unwrapped
    texts = [str(inner.game.action_from_id(i)) for i in np.flatnonzero(inner.action_masks())]
    assert texts
    assert all(text.startswith("deck ") for text in texts)
    assert all(i < inner.game.num_distinct_actions for i in np.flatnonzero(inner.action_masks()))


def test_the_wrapper_keeps_pettingzoos_order_checks(caplog: pytest.LogCaptureFixture) -> None:
    env = pz.env("auf-die-eier", players=2)
    assert isinstance(env, OrderEnforcingWrapper)
    for name in ("agents", "agent_selection", "rewards", "terminations", "infos"):
        with pytest.raises(AttributeError):
            getattr(env, name)
    with pytest.raises(AttributeError):
        env.last()
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    env.reset(seed=1)
    assert env.agents == env.unwrapped.agents
    assert env.agent_selection == env.unwrapped.agent_selection
    observation, reward, termination, truncation, info = env.last()
    assert observation["action_mask"].any()
    assert (reward, termination, truncation, info) == (0.0, False, False, {})
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        env.step(
            None
            if termination or truncation
            else int(np.flatnonzero(observation["action_mask"])[0])
        )
    assert not env.agents
    env.step(None)  # a step after the end only warns, as PettingZoo's wrapper does
    assert "after all agents are terminated" in caplog.text


@pytest.mark.parametrize("game_id", ["auf-die-eier", "auweier", "awimbawe", "auf-die-nuesse"])
def test_pettingzoo_render_test_in_every_mode(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(lambda render_mode=None: pz.env(game_id, render_mode=render_mode))
    assert "to move" in capsys.readouterr().out  # the human mode printed the table


@pytest.mark.parametrize(("game_id", "players"), [("awimbawe", 2), ("auweier", 3)])
def test_state_is_every_seats_observation(game_id: str, players: int) -> None:
    env = pz.env(game_id, players=players)
    env.reset(seed=4)
    inner = env.unwrapped
    for _ in range(10):
        state = env.state()
        assert inner.state_space.contains(state)
        parts = np.split(state, players)
        for seat, agent in enumerate(env.possible_agents):
            np.testing.assert_array_equal(parts[seat], env.observe(agent)["observation"])
        legal = np.flatnonzero(env.last()[0]["action_mask"])
        env.step(int(legal[0]))


def test_win_loss_rewards_are_plus_and_minus_one() -> None:
    for players in (2, 3):
        env = pz.env("auf-die-eier", players=players, reward="win_loss")
        rewards, _ = _play_to_end(env, seed=2)
        returns = env.unwrapped.match.table.state.returns()
        assert [rewards[a] for a in env.possible_agents] == [2 * r - 1 for r in returns]
        assert sorted(rewards.values())[-1] == 1.0
        assert sorted(rewards.values())[0] == -1.0
