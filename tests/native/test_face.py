"""The native core's Python face: loading, options, refusals, playouts, conversions, panics.

Every test runs on every game the installed native core plays (all four in CI, which requires
the native core: ``SPIELTISCH_REQUIRE_NATIVE``). The rules themselves are the agreement
tests' (``test_<game>.py``).
"""

from __future__ import annotations

import copy
import random
from typing import Any, cast

import numpy as np
import pytest

import spieltisch
from spieltisch import native
from spieltisch.core.errors import (
    IllegalActionError,
    InvalidActionError,
    NativeError,
    OptionError,
    UnknownGameError,
)
from spieltisch.lab.play import play_game, seat_agents
from spieltisch.native.build import extension
from tests.native.agreement import option_values, require_native

require_native()

GAMES = native.games()


@pytest.fixture(params=GAMES)
def game_id(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def _step(state: native.NativeState, rng: object) -> None:
    """One step in place: chance's draw, or the player's last legal action (none at the end)."""
    if state.is_chance():
        state.apply_random_chance(rng)
    elif not state.is_terminal():
        state.apply(state.legal_actions()[-1])


def test_the_readme_example_runs() -> None:
    """The README's section on the native core, as written there."""
    if "awimbawe" not in GAMES:
        require_native("awimbawe")
    game = native.load("awimbawe")
    state = game.initial_state()
    state.apply_random_chance(native.Rng(7))  # the deal
    actions = state.legal_actions()
    state.apply(actions[0])
    played = game.playouts(1000, seed=1)
    assert played.returns.shape == (1000, 2)
    assert set(played.returns.sum(axis=1).tolist()) <= {0.0, 1.0}
    python = game.to_python(state)
    assert python.current_player() == state.current_player()


def test_every_game_is_there_and_sizes_match_the_python_game(game_id: str) -> None:
    assert set(GAMES) <= set(spieltisch.game_ids())
    info = spieltisch.load(game_id).info
    for players in range(info.min_players, info.max_players + 1):
        game = native.load(game_id, players)
        assert game.players == players
        assert game.num_distinct_actions == game.python.num_distinct_actions
        state = game.initial_state()
        assert game.observation_size == state.observation(0).shape[0]
        assert state.observation(None).dtype == np.float32


def test_options_are_checked_as_the_python_game_checks_them(game_id: str) -> None:
    info = spieltisch.load(game_id).info
    with pytest.raises(OptionError):
        native.load(game_id, info.max_players + 1)
    with pytest.raises(OptionError, match="no option"):
        native.load(game_id, no_such_option=1)


def test_the_native_core_refuses_bad_options_on_its_own(game_id: str) -> None:
    """The extension checks what it is given too (any input is bounded, whoever calls)."""
    module = extension()
    info = spieltisch.load(game_id).info
    with pytest.raises(OptionError):
        module.new_game(game_id, info.max_players + 1, [])
    with pytest.raises(OptionError):
        module.new_game(game_id, info.default_players, [("no_such_option", True)])
    for spec in info.options:
        wrong: object = "text" if not isinstance(spec.default, str) else 3
        with pytest.raises(OptionError):
            module.new_game(game_id, info.default_players, [(spec.name, wrong)])
        if spec.bounds is not None:
            with pytest.raises(OptionError):
                module.new_game(game_id, info.default_players, [(spec.name, spec.bounds[1] + 1)])
    with pytest.raises(UnknownGameError):
        module.new_game("chess", 2, [])


def test_a_panic_arrives_as_a_native_error_naming_the_game(game_id: str) -> None:
    with pytest.raises(NativeError, match=f"native core of {game_id} failed"):
        extension()._panic_for_test(game_id)


def test_refused_steps_change_nothing_and_say_why(game_id: str) -> None:
    game = native.load(game_id)
    state = game.initial_state()
    rng = native.Rng(3)
    while state.is_chance():
        state.apply_random_chance(rng)
    before = state.canonical()
    with pytest.raises(InvalidActionError, match="no action id"):
        state.apply(game.num_distinct_actions)
    with pytest.raises(InvalidActionError):
        state.apply(-5)
    with pytest.raises(IllegalActionError, match="chance"):
        state.apply_chance((1, 2, 3))
    with pytest.raises(IllegalActionError, match="chance"):
        state.apply_random_chance(rng)
    with pytest.raises(OverflowError):
        state.apply(2**70)
    with pytest.raises(InvalidActionError, match="no action id"):
        state.apply(True)
    assert state.canonical() == before and len(state) == len(state.history())
    chance = game.initial_state()
    while not chance.is_chance():
        _step(chance, rng)
    before = chance.canonical()
    codes: list[Any] = [(True,), (0,) * 65, "012"]
    for code in codes:
        with pytest.raises(InvalidActionError):
            chance.apply_chance(code)
    with pytest.raises((InvalidActionError, IllegalActionError)):
        chance.apply_chance(())
    assert chance.canonical() == before


def test_a_panic_while_stepping_leaves_the_state_refused_not_half_changed(game_id: str) -> None:
    state = native.load(game_id).initial_state()
    twin = state.clone()
    with pytest.raises(NativeError, match=f"native core of {game_id} failed"):
        cast(Any, state)._panic_for_test()
    for question in (state.legal_actions, state.canonical, state.clone, state.is_terminal):
        with pytest.raises(NativeError, match="left broken"):
            question()
    assert twin.canonical() == native.load(game_id).initial_state().canonical()


def test_states_copy_independently(game_id: str) -> None:
    game = native.load(game_id)
    state = game.initial_state()
    _step(state, native.Rng(5))
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert twin.canonical() == state.canonical() and twin.history() == state.history()
        _step(twin, native.Rng(6))
        assert twin.history() != state.history()
    legal = [] if state.is_chance() else state.legal_actions()
    if legal:
        child = state.child(legal[-1])
        assert child.history() == [*state.history(), legal[-1]]


def test_playouts_depend_only_on_the_seed(game_id: str) -> None:
    """... and on nothing else: threads, or whether records are kept (which goes through the
    rules' sampling of whole outcomes instead of their chance steps in place)."""
    game = native.load(game_id)
    unrecorded = game.playouts(40, seed=11)
    one = game.playouts(40, seed=11, records=True)
    assert np.array_equal(unrecorded.returns, one.returns)
    assert np.array_equal(unrecorded.steps, one.steps)
    two = game.playouts(40, seed=11, threads=2, records=True)
    other = game.playouts(40, seed=12, records=True)
    assert np.array_equal(one.returns, two.returns)
    assert np.array_equal(one.steps, two.steps)
    assert one.records == two.records
    assert one.records != other.records
    assert one.records is not None and [len(r) for r in one.records] == one.steps.tolist()
    assert game.playouts(3, seed=11).records is None


def test_playout_records_replay_in_python_to_the_same_end(game_id: str) -> None:
    game = native.load(game_id)
    played = game.playouts(15, seed=21, records=True)
    assert played.records is not None
    for record, returns in zip(played.records, played.returns.tolist(), strict=True):
        end = game.replay(record)
        assert end.is_terminal()
        assert list(end.returns()) == returns


def test_playouts_from_a_state_in_play(game_id: str) -> None:
    game = native.load(game_id)
    state = game.initial_state()
    rng = native.Rng(9)
    for _ in range(6):
        _step(state, rng)
    played = game.playouts(10, seed=2, state=state, records=True)
    assert played.records is not None
    for record in played.records:
        assert game.replay([*state.history(), *record]).is_terminal()


def test_bad_playout_arguments_are_refused(game_id: str) -> None:
    game = native.load(game_id)
    info = game.python.info
    other = native.load(game_id, info.max_players if game.players != info.max_players else 2)
    if other.players != game.players:
        with pytest.raises(ValueError, match="not of this"):
            game.playouts(1, seed=1, state=other.initial_state())
    same = native.load(game_id, game.players)
    assert same.playouts(2, seed=1, state=game.initial_state()).returns.shape[0] == 2
    with pytest.raises(ValueError, match="seed"):
        game.playouts(1, seed=-1)
    with pytest.raises(ValueError, match="count"):
        game.playouts(-1, seed=1)
    with pytest.raises(ValueError, match="threads"):
        game.playouts(1, seed=1, threads=0)
    with pytest.raises(ValueError, match="seed"):
        native.Rng(-1)
    with pytest.raises(ValueError, match="seed"):
        native.Rng(True)
    with pytest.raises(ValueError, match="seat"):
        game.initial_state().observation(game.players)


def test_records_of_python_games_replay_natively_and_back(game_id: str) -> None:
    game = native.load(game_id)
    names = ["random"] * game.players
    for seed in range(3):
        played = play_game(game.python, seat_agents(game.python, names, seed), seed)
        state = game.from_record(played.record)
        assert state.is_terminal()
        back = game.to_python(state)
        assert back == spieltisch.replay(game.python, played.record)
        assert list(back.returns()) == state.returns()


def test_a_record_of_other_options_is_refused(game_id: str) -> None:
    game = native.load(game_id)
    spec = game.python.info.options[0]
    changed = native.NativeGame(
        spieltisch.load(game_id, None, **{spec.name: option_values(spec)[0]})
    )
    names = ["random"] * changed.players
    played = play_game(changed.python, seat_agents(changed.python, names, 1), 1)
    with pytest.raises(NativeError, match="the record is for"):
        game.from_record(played.record)
    assert changed.from_record(played.record).is_terminal()


def test_a_step_that_does_not_fit_the_python_game_is_refused(game_id: str) -> None:
    game = native.load(game_id)
    start = game.python.initial_state()
    step: native.Step = 0 if start.is_chance() else (0,)
    with pytest.raises(NativeError):
        game.replay([step])
    if start.is_chance():
        move = start.sample_chance(random.Random(1))
        code = game.step_of(start, move)
        assert isinstance(code, tuple) and game.move_of(start, code) == move
