"""The OpenSpiel games play the same on both engines: random games (chance drawn from
``chance_outcomes``) on the native core and on the Python engine, side by side, over the
configurations the native agreement tests walk, give the same players, legal actions, chance
outcomes, observation tensors, strings, histories and returns."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from spieltisch.rl import openspiel  # noqa: E402
from tests.native.agreement import Config, configs, require_native  # noqa: E402
from tests.rl.conftest import GAMES  # noqa: E402

require_native()

STRINGS_EVERY = 5
"""Strings (worked out from the Python state the native engine replays) every n-th step."""
CASES = [(game_id, config) for game_id in GAMES for config in configs(game_id)]
CASES += [("awimbawe", Config(2, {"lands": n, "rhino_to_empty_pile": True})) for n in (2, 3)]


def _pair(game_id: str, config: Config) -> tuple[Any, Any]:
    params: dict[str, Any] = {"players": config.players, **config.options}
    name = openspiel.openspiel_name(game_id)
    native = pyspiel.load_game(name, {**params, "native": True})
    python = pyspiel.load_game(name, {**params, "native": False})
    return native.new_initial_state(), python.new_initial_state()


def _spectator_tensor(state: Any) -> Any:
    """What a public observer (a spectator) encodes of ``state``."""
    kind = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = state.get_game().make_py_observer(kind)
    observer.set_from(state, 0)
    return observer.tensor.copy()


def _agree(native: Any, python: Any, step: int) -> None:
    assert native.current_player() == python.current_player()
    assert native.is_terminal() == python.is_terminal()
    if native.is_terminal():
        return
    if native.is_chance_node():
        assert native.chance_outcomes() == python.chance_outcomes()
    else:
        player = native.current_player()
        assert native.legal_actions() == python.legal_actions()
        np.testing.assert_array_equal(
            native.observation_tensor(player), python.observation_tensor(player)
        )
        np.testing.assert_array_equal(_spectator_tensor(native), _spectator_tensor(python))
        if step % STRINGS_EVERY == 0:
            assert native.observation_string(player) == python.observation_string(player)
            assert native.information_state_string(player) == python.information_state_string(
                player
            )
            assert native.information_state_tensor(player) == python.information_state_tensor(
                player
            )
    if step % STRINGS_EVERY == 0:
        assert str(native) == str(python)


@pytest.mark.parametrize(("game_id", "config"), CASES, ids=[f"{g}-{c}" for g, c in CASES])
def test_both_engines_play_the_same_openspiel_game(game_id: str, config: Config) -> None:
    native, python = _pair(game_id, config)
    assert native.native_state is not None
    assert python.native_state is None
    rng = random.Random(f"{game_id} {config}")
    step = 0
    while True:
        _agree(native, python, step)
        if native.is_terminal():
            break
        if native.is_chance_node():
            actions, chances = zip(*native.chance_outcomes(), strict=True)
            action = rng.choices(actions, chances)[0]
        else:
            action = rng.choice(native.legal_actions())
            assert native.action_to_string(action) == python.action_to_string(action)
        native.apply_action(action)
        python.apply_action(action)
        step += 1
    assert native.history() == python.history()
    assert native.returns() == python.returns()
    assert sum(native.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_native_state_mid_deal_clones_and_pickles_to_the_same_game(game_id: str) -> None:
    """A clone and an unpickled copy, taken at every step of a random game, whatever the
    chance event dealt so far, carry on as the original does."""
    native, _ = _pair(game_id, configs(game_id)[0])
    rng = random.Random(7)
    for step in range(120):
        if native.is_terminal():
            break
        copies = [native.clone(), pickle.loads(pickle.dumps(native))]
        if native.is_chance_node():
            actions, chances = zip(*native.chance_outcomes(), strict=True)
            action = rng.choices(actions, chances)[0]
        else:
            action = rng.choice(native.legal_actions())
        for state in (native, *copies):
            state.apply_action(action)
        for copy in copies:
            assert copy.native_state is not None
            assert copy.history() == native.history()
            if native.is_chance_node():
                assert copy.chance_outcomes() == native.chance_outcomes()
            if step % STRINGS_EVERY == 0:
                assert str(copy) == str(native)
