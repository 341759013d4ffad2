"""The OpenSpiel games pass OpenSpiel's own random-simulation test (with serialization) for
every game, and their item-by-item chance nodes give each outcome its exact probability."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from spieltisch import load  # noqa: E402
from spieltisch.games.auweier import Arrange, AuweierState, AuweierView, Card  # noqa: E402
from spieltisch.rl import openspiel  # noqa: E402
from spieltisch.rl.chance import SPLITTERS  # noqa: E402
from spieltisch.rl.encode import encoder_for  # noqa: E402
from spieltisch.session import Table  # noqa: E402
from tests.rl.conftest import GAMES  # noqa: E402

SIMULATIONS = (
    ("spieltisch_auf_die_eier", 2),
    ("spieltisch_auf_die_eier(players=4,shared_chicken_ladder=True)", 1),
    ("spieltisch_auf_die_nuesse", 1),
    ("spieltisch_auweier", 2),
    ("spieltisch_auweier(players=4,lucky_eggs=True)", 1),
    ("spieltisch_awimbawe", 2),
    ("spieltisch_awimbawe(blind_pick_shown=True,tie_break=seat1)", 1),
)


def test_every_game_is_registered_under_its_name() -> None:
    names = set(pyspiel.registered_names())
    for game_id in GAMES:
        assert openspiel.openspiel_name(game_id) in names


@pytest.mark.parametrize(("name", "simulations"), SIMULATIONS)
def test_openspiel_random_simulation_test(name: str, simulations: int) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=simulations, serialize=True, verbose=False)


def test_parameters_reach_the_rules_and_tensors_are_the_encoders() -> None:
    game = pyspiel.load_game("spieltisch_auf_die_eier(players=3)")
    assert game.num_players() == 3
    assert game.rules == load("auf-die-eier", 3)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[0][0])
    player = state.current_player()
    expected = encoder_for("auf-die-eier").encode(state.rules_state.view(player))
    np.testing.assert_array_equal(np.array(state.information_state_tensor(player)), expected)
    np.testing.assert_array_equal(np.array(state.observation_tensor(player)), expected)
    assert state.information_state_string(player) == state.observation_string(player)
    legal = state.legal_actions()
    ids = sorted(game.rules.action_id(m) for m in state.rules_state.legal_actions())
    assert legal == ids


def test_awimbawe_is_dealt_card_by_card() -> None:
    game = pyspiel.load_game("spieltisch_awimbawe")
    state = game.new_initial_state()
    steps = 0
    while state.is_chance_node() and state.rules_state.is_chance() and steps < 28:
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 28 - steps
        assert all(p == pytest.approx(1 / (28 - steps)) for _, p in outcomes)
        state.apply_action(outcomes[-1][0])
        steps += 1
    assert steps == 28
    assert not state.rules_state.is_chance() or state.rules_state.view(None).stage.value != "deal"


def _small_shuffle(spread: bool, keep: tuple[int, ...]) -> AuweierState:
    """Player 0 of a two-player Auweier places cards until only ``keep`` (counts per kind)
    is left, then shuffles (or spreads) it."""
    table = Table(load("auweier", 2), seed=0)
    view = table.view(0)
    assert isinstance(view, AuweierView)
    hand = list(view.hand or ())
    for kind, count in enumerate(hand):
        for _ in range(count - keep[kind]):
            table.play(Arrange((Card(kind),)))
    word = "deck spread" if spread else "deck shuffle"
    table.play(next(m for m in table.legal() if str(m) == word))
    state = table.state
    assert isinstance(state, AuweierState)
    return state


@pytest.mark.parametrize("spread", [False, True])
def test_auweier_shuffles_card_by_card_have_the_rules_probabilities(spread: bool) -> None:
    keep = (1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2) if spread else (2, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0)
    state = _small_shuffle(spread, keep)
    splitter = SPLITTERS["auweier"]
    assert splitter.applies(state)
    rules = dict(state.chance_outcomes())
    found: dict[object, Fraction] = {}
    frontier: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while frontier:
        drawn, chance = frontier.pop()
        outcome = splitter.outcome(state, drawn)
        if outcome is not None:
            found[outcome] = found.get(outcome, Fraction(0)) + chance
            continue
        items = splitter.next_items(state, drawn)
        assert sum(p for _, p in items) == 1
        frontier.extend(((*drawn, item), chance * p) for item, p in items)
    assert found == rules


def test_resampling_keeps_what_the_player_knows() -> None:
    game = pyspiel.load_game("spieltisch_awimbawe")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    player = state.current_player()
    samples = [state.resample_from_infostate(player, rng.random) for _ in range(5)]
    for sample in samples:
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
    other = 1 - player
    strings = {s.information_state_string(other) for s in samples}
    assert len(strings) > 1  # the opponent's hand is redealt


def test_action_strings_name_the_moves() -> None:
    game = pyspiel.load_game("spieltisch_awimbawe")
    state = game.new_initial_state()
    first = state.chance_outcomes()[0][0]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, first) == "card G1"
    texts = [str(game.rules.action_from_id(i)) for i in range(game.num_distinct_actions())]
    assert all(a != b for a, b in itertools.pairwise(texts))
