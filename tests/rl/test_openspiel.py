"""The OpenSpiel games pass OpenSpiel's own random-simulation test (with serialization) for
every game, and their item-by-item chance nodes give each outcome its exact probability."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.usefixtures("openspiel_engine")

from spieltisch import load  # noqa: E402
from spieltisch.games.auf_die_eier import EierState  # noqa: E402
from spieltisch.games.auweier import Arrange, AuweierState, AuweierView, Card  # noqa: E402
from spieltisch.games.awimbawe import deck_of  # noqa: E402
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
    ("spieltisch_awimbawe(lands=1,rounds_to_win=1)", 4),
    ("spieltisch_awimbawe(lands=2,rhino_to_empty_pile=True)", 2),
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
    size = expected.shape[0]
    info = np.array(state.information_state_tensor(player))
    assert info.shape == (size + game.history_slots,)
    np.testing.assert_array_equal(info[:size], expected)
    np.testing.assert_array_equal(np.array(state.observation_tensor(player)), expected)
    assert state.observation_string(player) in state.information_state_string(player)
    legal = state.legal_actions()
    ids = sorted(game.rules.action_id(m) for m in state.rules_state.legal_actions())
    assert legal == ids


def test_the_games_are_constant_sum_and_their_returns_sum_to_one() -> None:
    for game_id in GAMES:
        game = pyspiel.load_game(openspiel.openspiel_name(game_id))
        assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert game.utility_sum() == 1.0
        state = game.new_initial_state()
        rng = random.Random(1)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, chances)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("dice", range(1, 10))
def test_eier_throws_die_by_die_equal_the_rules_throw_in_distribution(dice: int) -> None:
    """Die by die, each face 1/6: the probability of every throw (a multiset of faces) is the
    rules' exactly. The orders are merged by multiset as they are drawn, which is exact since
    the next die does not depend on the order of the ones before."""
    state = next(s for s in _eier_throws() if s.to_throw == dice)
    splitter = SPLITTERS["auf-die-eier"]
    assert splitter.applies(state)
    frontier: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for _ in range(dice):
        assert all(splitter.outcome(state, drawn) is None for drawn in frontier)
        grown: dict[tuple[int, ...], Fraction] = {}
        for drawn, chance in frontier.items():
            items = splitter.next_items(state, drawn)
            assert [p for _, p in items] == [Fraction(1, 6)] * 6
            for item, p in items:
                key = tuple(sorted((*drawn, item)))
                grown[key] = grown.get(key, Fraction(0)) + chance * p
        frontier = grown
    found = {splitter.outcome(state, drawn): chance for drawn, chance in frontier.items()}
    assert found == dict(state.chance_outcomes())


def _eier_throws() -> list[EierState]:
    """Chance nodes of random Auf die Eier games, throws of every size from one to nine."""
    game = load("auf-die-eier", 2)
    rng = random.Random(5)
    found: dict[int, EierState] = {}
    state = game.initial_state()
    while len(found) < 9:
        if state.is_terminal():
            state = game.initial_state()
        if state.is_chance():
            assert isinstance(state, EierState)
            found.setdefault(state.to_throw, state)
            state = state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    return [found[n] for n in sorted(found)]


def test_eier_chance_nodes_are_single_dice_in_the_openspiel_game() -> None:
    game = pyspiel.load_game("spieltisch_auf_die_eier")
    assert game.max_chance_outcomes() == 6
    state = game.new_initial_state()
    for step in range(9):
        assert state.is_chance_node()
        assert state.chance_outcomes() == [(face, 1 / 6) for face in range(6)]
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "die R"
        state.apply_action(step % 6)
    assert not state.is_chance_node()
    assert state.rules_state.view(0).dice == (2, 2, 2, 1, 1, 1)


def test_nuesse_throws_die_by_die_equal_the_rules_throw() -> None:
    game = load("auf-die-nuesse", 2)
    state = game.initial_state()
    rng = random.Random(2)
    splitter = SPLITTERS["auf-die-nuesse"]
    while not splitter.applies(state):
        if state.is_chance():
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
    found: dict[object, Fraction] = {}
    for drawn in itertools.product(range(6), repeat=3):
        for size in range(3):
            assert splitter.outcome(state, drawn[:size]) is None
        found[splitter.outcome(state, drawn)] = Fraction(1, 216)
    assert found == dict(state.chance_outcomes())


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


@pytest.mark.parametrize("lands", [1, 2, 3])
def test_awimbawe_with_fewer_lands_deals_only_the_cards_in_play(lands: int) -> None:
    game = pyspiel.load_game(f"spieltisch_awimbawe(lands={lands})")
    cards = {card.code for card in deck_of(lands)}
    state = game.new_initial_state()
    dealt: list[int] = []
    while state.is_chance_node() and state.rules_state.is_chance() and len(dealt) < 28:
        outcomes = state.chance_outcomes()
        assert {a for a, _ in outcomes} == cards - set(dealt)
        assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
        dealt.append(outcomes[0][0])
        state.apply_action(outcomes[0][0])
    assert len(dealt) == len(cards)
    assert state.rules_state.view(None).stage.value != "deal"


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


@pytest.mark.parametrize("game_id", GAMES)
def test_float_probabilities_are_the_exact_ones(game_id: str) -> None:
    """What OpenSpiel is handed (floats, some worked out in floats directly) is each split
    chance step's exact probability, at every step of random games."""
    game = pyspiel.load_game(openspiel.openspiel_name(game_id))
    splitter = SPLITTERS[game_id]
    rng = random.Random(4)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                rules, drawn = state.rules_state, state.drawn
                if splitter.applies(rules):
                    exact = splitter.next_items(rules, drawn)
                    floats = splitter.float_items(rules, drawn)
                    assert [i for i, _ in floats] == [i for i, _ in exact]
                    assert [p for _, p in floats] == pytest.approx([float(p) for _, p in exact])
                    checked += 1
                actions, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, chances)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0
