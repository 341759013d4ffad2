"""The OpenSpiel learner example (``examples/openspiel_learner.py``) and the ``openspiel``
extra's promise: OpenSpiel's PyTorch NFSP imports (it needs dm-tree and torch), a tiny run
of the example trains and measures for real, and without the extra the example names it."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import spieltisch
from spieltisch.core.game import Game

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_learner.py"
EXTRA = 'pip install "spieltisch[openspiel]"'


@pytest.fixture(scope="module")
def example() -> ModuleType:
    """The example, imported from its file."""
    spec = importlib.util.spec_from_file_location("openspiel_learner", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_learner"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def small_game() -> Game:
    """The example's default configuration: Auf die Eier with five dice, to 20 points."""
    return spieltisch.load("auf-die-eier", 2, goal=20, dice=5)


def needs_torch() -> None:
    """Skip where torch is not installed (the ``openspiel`` extra brings it, CI has it)."""
    pytest.importorskip("torch")
    pytest.importorskip("pyspiel")


def test_openspiel_pytorch_nfsp_imports_where_torch_is() -> None:
    needs_torch()
    nfsp = importlib.import_module("open_spiel.python.pytorch.nfsp")
    policy_gradient = importlib.import_module("open_spiel.python.pytorch.policy_gradient")
    assert callable(nfsp.NFSP)
    assert callable(policy_gradient.PolicyGradient)


def test_a_missing_dependency_names_the_extra(
    example: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    for missing in ("tree", "torch", "pyspiel"):
        with monkeypatch.context() as patch:
            patch.setitem(sys.modules, missing, None)  # ``import tree`` now raises ImportError
            with pytest.raises(example.MissingExtraError) as raised:
                example.openspiel_modules()
            assert EXTRA in str(raised.value)
            assert missing in str(raised.value)
            with pytest.raises(SystemExit) as stopped:
                example.main(["--episodes", "1", "--out", "/nonexistent/never-written"])
            assert EXTRA in str(stopped.value.code)


def tiny(example: ModuleType, algorithm: str, **changes: Any) -> Any:
    settings: dict[str, Any] = {
        "algorithm": algorithm,
        "episodes": 40,
        "checkpoints": 2,
        "eval_games": 12,
        "hidden": (8,),
        "seed": 3,
    }
    return example.Config(**(settings | changes))


def check_rate(rate: dict[str, Any], games: int) -> None:
    assert rate["games"] == games
    assert 0.0 <= rate["low"] <= rate["win_rate"] <= rate["high"] <= 1.0


@pytest.mark.parametrize("algorithm", ["nfsp", "a2c"])
def test_a_tiny_run_trains_and_measures_every_checkpoint(
    example: ModuleType, algorithm: str
) -> None:
    needs_torch()
    seen: list[dict[str, Any]] = []
    curve = example.train(tiny(example, algorithm), seen.append)
    points = curve["curve"]
    assert seen == points
    assert [p["episodes"] for p in points] == [0, 20, 40]
    steps = [p["steps"] for p in points]
    assert steps[0] == 0
    assert steps[0] < steps[1] < steps[2]  # every game has decisions
    minutes = [p["minutes"] for p in points]
    assert minutes == sorted(minutes)  # training time only grows
    for point in points:
        check_rate(point["random"], 12)
        check_rate(point["heuristic"], 12)
    check_rate(curve["heuristic_vs_random"], 12)
    assert curve["openspiel_game"] == "spieltisch_auf_die_eier(dice=5,goal=20,players=2)"
    assert curve["config"]["algorithm"] == algorithm


def seats_of(example: ModuleType, seed: int) -> list[Any]:
    """Two random networks of OpenSpiel's shape for the small Auf die Eier."""
    game = small_game()
    size = example.encoder_for(game.info.id).shape[0]
    actions = len(game.action_table().actions)
    rng = np.random.default_rng(seed)
    return [
        [
            (rng.normal(0, 0.3, (16, size)).astype(np.float32), np.zeros(16, np.float32)),
            (rng.normal(0, 0.3, (actions, 16)).astype(np.float32), np.zeros(actions, np.float32)),
        ]
        for _ in range(2)
    ]


@pytest.mark.parametrize("greedy", [False, True])
def test_the_measure_of_a_fixed_policy_is_reproducible(example: ModuleType, greedy: bool) -> None:
    game = small_game()
    config = tiny(example, "nfsp", eval_games=30, greedy=greedy)
    seats = seats_of(example, 5)
    first = example.evaluate(game, seats, config, 11)
    assert first == example.evaluate(game, seats, config, 11)
    for opponent in ("random", "heuristic"):
        check_rate(first[opponent], 30)
    assert example.LEARNER not in example.REGISTERED  # seated only while measured


def test_the_measured_agent_plays_the_trained_network_on_what_it_was_trained_on(
    example: ModuleType,
) -> None:
    """The frozen numpy copy gives the torch network's logits, and the seat's encoded view is
    OpenSpiel's observation tensor of that seat (the learner's input) along a random game."""
    needs_torch()
    pyspiel = pytest.importorskip("pyspiel")
    torch = pytest.importorskip("torch")
    modules = example.openspiel_modules()
    config = tiny(example, "nfsp", hidden=(16, 8))
    env = modules.rl_environment.Environment(
        example.game_string(config),
        observation_type=modules.rl_environment.ObservationType.OBSERVATION,
    )
    agents = example.make_agents(config, modules, env)
    network = example.policy_network(agents[1], "nfsp")
    layers = example.layers_of(network)
    assert [w.shape[0] for w, _ in layers][:2] == [16, 8]
    game = small_game()
    encoder = example.encoder_for(game.info.id)
    spiel = pyspiel.load_game(example.game_string(config))
    state = spiel.new_initial_state()
    rng = np.random.default_rng(2)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            continue
        seat = state.current_player()
        tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        view = state.rules_state.view(seat)
        np.testing.assert_array_equal(encoder.encode(view), tensor)
        with torch.no_grad():
            expected = network(torch.from_numpy(tensor)).numpy()
        np.testing.assert_allclose(example.logits(layers, tensor), expected, rtol=1e-4, atol=1e-5)
        state.apply_action(int(rng.choice(state.legal_actions())))
        decisions += 1
    assert decisions > 0


def test_the_greedy_agent_plays_the_most_likely_legal_move(example: ModuleType) -> None:
    game = small_game()
    seats = seats_of(example, 9)
    agent = example.LearnerAgent(game, 0, seats, greedy=True)
    table_state = game.initial_state()
    rng = np.random.default_rng(4)
    checked = 0
    while not table_state.is_terminal() and checked < 20:
        if table_state.is_chance():
            table_state = table_state.apply(table_state.sample_chance(rng_of(rng)))
            continue
        seat = table_state.current_player()
        assert seat is not None
        view = table_state.view(seat)
        legal = list(table_state.legal_actions())
        out = example.logits(seats[seat], agent.encoder.encode(view))
        best = max(legal, key=lambda move: out[game.action_table().id_of(move)])
        assert agent.act(view, legal) == best
        table_state = table_state.apply(legal[int(rng.integers(len(legal)))])
        checked += 1
    assert checked > 0


def rng_of(rng: np.random.Generator) -> Any:
    import random

    return random.Random(int(rng.integers(2**31)))
