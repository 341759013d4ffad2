"""The single-game Gymnasium environment on native states plays the Python engine's games:
every native episode (its steps, chance and the opponents' moves included) replays in the
Python engine, and at every learner step the Python engine's observation, mask and seat are
the native ones, its final reward the native one, for every game over a sample of its
configurations, against the random agent, the games' native bots and a policy file (whose
native moves are the Python policy agent's on the same views). Gymnasium's checker passes on
the native environment; an opponent that cannot play on a native state makes the episode a
Python one (or is refused with ``native=True``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import check_env

from spieltisch import native
from spieltisch.core.errors import NativeError, OptionError
from spieltisch.core.game import Game, State
from spieltisch.native import NativeGame
from spieltisch.native.agents import native_agents, native_game, roster
from spieltisch.rl import GYM_IDS, SpieltischGym
from spieltisch.rl.encode import encoder_for
from spieltisch.rl.gymnasium import NativeMirror, plays_on_native, policy_agent, roster_opponent
from spieltisch.rl.learned import policy_path
from spieltisch.rl.match import ActionIds, Match, final_rewards
from spieltisch.rl.policy import PolicyAgent, save_policy
from tests.native.agreement import Config, configs, require_native
from tests.rl.conftest import CASES, GAMES

EPISODES = 3
"""Episodes played per configuration and opponent."""


@pytest.fixture
def core() -> None:
    """Skip (or fail, where the native core is required) without the native core."""
    require_native()


def sampled(game_id: str) -> list[Config]:
    """Every player count at the defaults and about six of the option configurations."""
    every = configs(game_id)
    defaults = [config for config in every if not config.options]
    others = [config for config in every if config.options]
    return defaults + others[:: max(1, len(others) // 6)]


LOOPING = frozenset({"Swap"})
"""Moves a deterministic player may repeat forever (Auweier's swaps in a wedding): the test
policies play them last."""


def policy_file(folder: Path, game: Game, seed: int = 0) -> Path:
    """A policy of random weights for ``game`` (one hidden layer), written to ``folder``."""
    rng = np.random.default_rng(seed)
    actions = game.action_table().actions
    last = np.array([type(action).__name__ in LOOPING for action in actions])
    size = encoder_for(game.info.id).shape[0]
    hidden = 16
    layers = [
        (rng.normal(size=(hidden, size)).astype(np.float32), np.zeros(hidden, np.float32)),
        (
            rng.normal(size=(game.num_distinct_actions, hidden)).astype(np.float32),
            (rng.normal(size=game.num_distinct_actions) - 1000.0 * last).astype(np.float32),
        ),
    ]
    path = folder / f"{game.info.id}-{game.players}.npz"
    save_policy(path, game.info.id, layers)
    return path


def opponent_cases(game_id: str) -> list[str]:
    """The native opponents of a game: random, and every other native agent it lists."""
    return ["random", *sorted(native_agents(game_id) - {"random"})]


class Follower:
    """A native episode followed in the Python engine from its native steps."""

    def __init__(self, env: SpieltischGym) -> None:
        self.env = env
        self.game = env.game
        self.both = NativeGame(env.game)
        self.ids = ActionIds(env.game)
        self.encoder = encoder_for(env.game.info.id)
        self.state: State = env.game.initial_state()
        self.done = 0
        self.policies: dict[int, PolicyAgent] = {}

    def follow(self) -> list[int | tuple[int, ...]]:
        """Replay the native steps not replayed yet (each validated by the Python engine);
        each opponent decision of a policy seat is checked against the Python policy agent."""
        native_state = self.env.native_state
        assert native_state is not None
        steps = native_state.history()
        new = steps[self.done :]
        for step in new:
            player = self.state.current_player()
            move = self.both.move_of(self.state, step)
            if player is not None and player in self.policies:
                chosen = self.policies[player].act(
                    self.state.view(player), self.state.legal_actions()
                )
                assert chosen == move
            self.state = self.state.apply(move)
        self.done = len(steps)
        return new

    def mask(self) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.game.num_distinct_actions, np.int8)
        mask[self.ids.legal_ids(self.state.legal_actions())] = 1
        return mask

    def check(self, observation: Any, info: dict[str, Any]) -> None:
        """The learner's decision (or the end) as the Python engine shows it."""
        seat = self.env.seat
        assert info["seat"] == seat
        if self.state.is_terminal():
            assert not info["action_mask"].any()
        else:
            assert self.state.current_player() == seat
            np.testing.assert_array_equal(info["action_mask"], self.mask())
        np.testing.assert_array_equal(self.env.action_masks(), info["action_mask"])
        np.testing.assert_array_equal(observation, self.encoder.encode(self.state.view(seat)))


Policies = Callable[[SpieltischGym], dict[int, PolicyAgent]]
"""The Python policy agents of an episode's opponent seats, by seat (to check their moves)."""


def play_episode(env: SpieltischGym, seed: int, policies: Policies) -> int:
    """One native episode with random masked learner actions, checked step by step against
    its Python replay; the learner's steps."""
    observation, info = env.reset(seed=seed)
    assert env.native
    follower = Follower(env)
    follower.policies = policies(env)
    follower.follow()
    follower.check(observation, info)
    rng = np.random.default_rng(seed)
    steps, done = 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated and "illegal" not in info
        new = follower.follow()
        assert new[0] == action
        follower.check(observation, info)
        steps += 1
        if done:
            assert follower.state.is_terminal()
            paid = final_rewards(follower.state, env.reward)[env.seat]
            assert reward == pytest.approx(paid, abs=1e-6)
        else:
            assert reward == 0.0
    return steps


def policy_seats(spec: str) -> Policies:
    """The Python policy agent of every opponent seat of an episode, if ``spec`` is one."""

    def seats(env: SpieltischGym) -> dict[int, PolicyAgent]:
        if not spec.startswith("policy:"):
            return {}
        agent = PolicyAgent(env.game, 0, Path(spec.partition(":")[2]))
        return {p: agent for p in range(env.game.players) if p != env.seat}

    return seats


REPLAY_CASES = [(game_id, config) for game_id in GAMES for config in sampled(game_id)]


@pytest.mark.usefixtures("core")
@pytest.mark.parametrize(("game_id", "config"), REPLAY_CASES, ids=str)
def test_native_episodes_replay_in_the_python_engine(
    game_id: str, config: Config, tmp_path: Path
) -> None:
    options: dict[str, Any] = dict(config.options)
    reward = ("returns", "win_loss", "score_diff")[len(str(config)) % 3]
    probe = SpieltischGym(game_id, config.players, native=False, **options)
    specs = [*opponent_cases(game_id), f"policy:{policy_file(tmp_path, probe.game)}"]
    for index, spec in enumerate(specs):
        env = SpieltischGym(
            game_id, config.players, opponents=spec, reward=reward, native=True, **options
        )
        assert env.native
        steps = sum(
            play_episode(env, 100 * index + episode, policy_seats(spec))
            for episode in range(EPISODES)
        )
        assert steps > 0


@pytest.mark.usefixtures("core")
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_gymnasium_check_env_on_the_native_env(game_id: str, players: int) -> None:
    env = gym.make(GYM_IDS[game_id], players=players, render_mode="ansi", native=True)
    inner = env.unwrapped
    assert isinstance(inner, SpieltischGym)
    assert inner.native
    check_env(inner, skip_render_check=False)
    assert inner.native


@pytest.mark.usefixtures("core")
@pytest.mark.parametrize("game_id", GAMES)
def test_a_seed_replays_the_same_native_episode(game_id: str) -> None:
    def episode(env: SpieltischGym) -> tuple[list[Any], float]:
        _, info = env.reset(seed=5)
        rng = np.random.default_rng(5)
        done, reward = False, 0.0
        while not done:
            _, reward, done, _, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
        state = env.native_state
        assert state is not None
        return state.history(), reward

    env = SpieltischGym(game_id, native=True)
    assert episode(env) == episode(env) == episode(SpieltischGym(game_id, native=True))


@pytest.mark.usefixtures("core")
def test_the_match_of_a_native_episode_is_its_python_replay() -> None:
    env = SpieltischGym("awimbawe", seat=1, opponents="random", render_mode="ansi")
    _, info = env.reset(seed=3)
    assert env.native
    text = env.render()
    assert text is not None and "to move" in text
    rng = np.random.default_rng(3)
    done = False
    while not done:
        _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    match = env.match
    assert isinstance(match, NativeMirror)
    assert match.over
    state = env.native_state
    assert state is not None
    assert match.table.state == NativeGame(env.game).to_python(state)
    assert reward == match.rewards()[1]
    env.reset(seed=4)
    assert not env.match.over


@pytest.mark.usefixtures("core")
def test_an_illegal_action_ends_a_native_episode_with_the_penalty() -> None:
    env = SpieltischGym("auf-die-eier", players=2, illegal_penalty=-2.5, native=True)
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-2.5, True, False, True)
    np.testing.assert_array_equal(again, observation)
    for refused in (10**9, -1, True, 1.5):
        _, reward, terminated, _, _ = env.step(refused)  # type: ignore[arg-type]
        assert (reward, terminated) == (-2.5, True)


@pytest.mark.usefixtures("core")
def test_opponents_that_cannot_play_natively_make_a_python_episode() -> None:
    env = SpieltischGym("awimbawe", opponents="ismcts:10")
    assert not env.native
    env.reset(seed=1)
    assert not env.native and env.native_state is None
    assert not isinstance(env.match, NativeMirror)
    assert env.match.table.to_act() == env.seat
    with pytest.raises(OptionError, match="native engine cannot seat"):
        SpieltischGym("awimbawe", opponents="ismcts:10", native=True)
    assert not SpieltischGym("awimbawe", native=False).native


@pytest.mark.usefixtures("core")
def test_the_engine_is_chosen_at_every_reset_from_the_opponents(tmp_path: Path) -> None:
    """As examples/self_play.py's league changes the opponents between games."""
    env = SpieltischGym("auweier", players=3)
    policy = f"policy:{policy_file(tmp_path, env.game)}"
    for specs, natively in (
        (("random", policy), True),
        (("ismcts:5", "random"), False),
        ((policy, policy), True),
    ):
        env.opponent_specs = specs
        _, info = env.reset(seed=2)
        assert env.native == natively
        assert isinstance(env.match, NativeMirror) == natively
        rng = np.random.default_rng(2)
        done = False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert env.match.over


@pytest.mark.usefixtures("core")
def test_only_bare_native_names_and_policy_files_play_natively() -> None:
    env = SpieltischGym("auf-die-eier", native=True)
    core = NativeGame(env.game)
    for name in native_agents("auf-die-eier"):
        assert plays_on_native(core, name)
    assert not plays_on_native(core, "random:3")
    assert not plays_on_native(core, "ismcts")
    assert not plays_on_native(core, "policy")
    assert plays_on_native(core, "policy:somewhere.npz")


def test_the_learned_level_plays_natively_where_it_is_offered() -> None:
    env = SpieltischGym("awimbawe", native=True)
    assert plays_on_native(NativeGame(env.game), "learned")
    assert not plays_on_native(NativeGame(SpieltischGym("auweier").game), "learned")
    env = SpieltischGym("awimbawe", opponents="learned", native=True)
    shipped = PolicyAgent(env.game, 0, policy_path("awimbawe"))

    def seats(env: SpieltischGym) -> dict[int, PolicyAgent]:
        return {1 - env.seat: shipped}

    assert sum(play_episode(env, seed, seats) for seed in range(3)) > 0


def test_without_the_native_core_the_python_engine_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native, "available", lambda: False)
    env = SpieltischGym("awimbawe")
    assert not env.native
    env.reset(seed=1)
    assert isinstance(env.match, Match) and not isinstance(env.match, NativeMirror)
    with pytest.raises(NativeError):
        SpieltischGym("awimbawe", native=True)


class OlderRoster:
    """A roster of a core built before ``act_on``: only ``act`` (from a history)."""

    def __init__(self, agents: Any) -> None:
        self.agents = agents

    def act(self, name: str, steps: list[Any], seed: int) -> int:
        chosen: int = self.agents.act(name, steps, seed)
        return chosen


@pytest.mark.usefixtures("core")
@pytest.mark.parametrize("game_id", GAMES)
def test_a_native_agent_acts_on_a_state_as_after_its_history(game_id: str) -> None:
    game = SpieltischGym(game_id, native=False).game
    both = native_game(game)
    rng = native.Rng(8)
    for name in sorted(native_agents(game_id)):
        if not plays_on_native(both, name):
            continue
        agents = roster(both, (name,))
        if not hasattr(agents, "act_on"):
            pytest.skip("a native core built before act_on")
        fast, replaying = (
            roster_opponent(agents, name, 7),
            roster_opponent(OlderRoster(agents), name, 7),
        )
        state = both.initial_state()
        decisions = 0
        while not state.is_terminal() and decisions < 300:
            if state.is_chance():
                with pytest.raises(ValueError, match="no agent acts here"):
                    agents.act_on(name, state, 1)
                state.apply_random_chance(rng)
                continue
            seat = state.current_player()
            assert seat is not None
            chosen = fast(state, seat)
            assert chosen == replaying(state, seat)
            assert chosen in state.legal_actions()
            state.apply(chosen)
            decisions += 1
        assert decisions > 0
    varied = next(config for config in configs(game_id) if config.options)
    other = native.load(game_id, varied.players, **dict(varied.options))
    with pytest.raises(ValueError, match="not of the roster's"):
        roster(both, ("random",)).act_on("random", other.initial_state(), 1)
    with pytest.raises(TypeError):
        roster(both, ("random",)).act_on("random", object(), 1)


def test_a_policy_file_is_read_once_until_it_changes(tmp_path: Path) -> None:
    game = SpieltischGym("auweier", native=False).game
    path = policy_file(tmp_path, game, seed=1)
    spec = f"policy:{path}"
    first = policy_agent(game, spec)
    assert policy_agent(game, spec) is first
    (tmp_path / "other").mkdir()
    path.write_bytes(policy_file(tmp_path / "other", game, seed=2).read_bytes())
    os.utime(path, ns=(1, 1))
    again = policy_agent(game, spec)
    assert again is not first
    assert again.policy is not None and first.policy is not None
    assert not np.array_equal(again.policy.layers[0][0], first.policy.layers[0][0])
    with pytest.raises(OptionError, match="no policy file"):
        policy_agent(game, f"policy:{tmp_path / 'missing.npz'}")
