"""The OpenSpiel games keep OpenSpiel's own rules: perfect recall, observers by
``IIGObservationType``, ``str(state)`` the full state, resampling that keeps the history."""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytestmark = pytest.mark.usefixtures("openspiel_engine")

from spieltisch.games import kit_of  # noqa: E402
from spieltisch.rl import openspiel  # noqa: E402
from spieltisch.rl.encode import encoder_for  # noqa: E402
from spieltisch.rl.text import compact  # noqa: E402
from tests.rl import recall  # noqa: E402
from tests.rl.conftest import GAMES  # noqa: E402

RECALL_GAMES = 4
"""Random games per case in CI (``python -m tests.rl.recall --games N`` counts more)."""


def _played(name: str, seed: int, decisions: int) -> Any:
    """A state of the OpenSpiel game ``name`` after ``decisions`` random decisions."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(seed)
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, chances)[0])
        elif made == decisions:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    return state


@pytest.mark.parametrize("name", [*recall.CASES, "spieltisch_awimbawe(lands=1,rounds_to_win=5)"])
def test_no_two_own_histories_share_an_information_state(name: str) -> None:
    counts = recall.count(name, RECALL_GAMES, seed=3)
    assert counts.decisions > 100
    assert counts.collisions == 0
    assert counts.tensor_collisions == 0


def test_the_old_information_state_the_current_view_was_not_perfect_recall() -> None:
    """The count the test above must keep at zero is not zero for the current view alone
    (what the information state was before): the test can fail."""
    counts = recall.count("spieltisch_auweier(players=2)", RECALL_GAMES, seed=3)
    assert counts.view_collisions > 0


def test_the_information_state_lists_the_moves_as_the_seat_saw_them() -> None:
    state = _played("spieltisch_awimbawe", seed=4, decisions=3)
    player = state.current_player()
    lines = state.information_state_string(player).split("\n")
    assert lines[0] == f"seat {player}"
    assert lines[1].startswith("chance deal")  # the deal, the seat's own cards only
    assert lines[-1] == "view " + state.observation_string(player)
    other = state.information_state_string(1 - player)
    assert other.split("\n")[1] != lines[1]  # each seat sees its own cards of the deal
    played = [line for line in lines[2:-1] if line.startswith(f"p{1 - player} ")]
    assert played  # the other seat's cards played are seen in full


REPR = re.compile(r"\w\(|\w=|\.of\b|Shown")
"""What a Python repr leaves in a string (``DealShown(up=((Card.of('M3'), ...``)."""


@pytest.mark.parametrize("game_id", GAMES)
def test_the_strings_write_moves_and_views_in_the_games_notation(game_id: str) -> None:
    game = pyspiel.load_game(openspiel.openspiel_name(game_id))
    for seed in range(2):
        state = _played(openspiel.openspiel_name(game_id), seed, decisions=10_000)
        for player in range(game.num_players()):
            for text in (
                state.information_state_string(player),
                state.observation_string(player),
            ):
                assert REPR.search(text) is None, REPR.search(text)


def test_the_awimbawe_deal_line_is_the_deal_as_the_seat_sees_it() -> None:
    state = _played("spieltisch_awimbawe", seed=4, decisions=0)
    for player in range(2):
        line = state.information_state_string(player).split("\n")[1]
        hand = " ".join(str(card) for card in state.rules_state.view(player).sides[player].hand)
        piles = [part.split(" / ") for part in line.removeprefix("chance deal ").split(" | ")]
        assert [len(side) for side in piles] == [3, 3]
        assert piles[player][2] == hand
        assert piles[1 - player][2] == " ".join(["??"] * 6)
        assert piles[player][0] == piles[1 - player][0] == "?? ?? ?? ??"


def test_observers_follow_iig_observation_types() -> None:
    game = pyspiel.load_game("spieltisch_awimbawe")
    state = _played("spieltisch_awimbawe", seed=2, decisions=5)
    rules = state.rules_state
    encoder = encoder_for("awimbawe")
    size = encoder.shape[0]
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(public)
    strings = {observer.string_from(state, p) for p in range(2)}
    assert strings == {compact(rules.view(None))}  # a spectator's view, the same for both
    for p in range(2):
        observer.set_from(state, p)
        np.testing.assert_array_equal(observer.tensor, encoder.encode(rules.view(None)))
    private = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    for p in range(2):
        assert private.string_from(state, p) == compact(rules.view(p))
        private.set_from(state, p)
        np.testing.assert_array_equal(private.tensor, encoder.encode(rules.view(p)))
    assert private.string_from(state, 0) != private.string_from(state, 1)
    recall_obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall_obs.tensor.shape == (size + game.history_slots,)
    assert set(recall_obs.dict) == {"observation", "history"}
    for p in range(2):
        assert recall_obs.string_from(state, p) == state.information_state_string(p)
    public_recall = game.make_py_observer(
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    assert len({public_recall.string_from(state, p) for p in range(2)}) == 1
    assert public_recall.string_from(state, 0).startswith("spectator\n")
    kinds = pyspiel.PrivateInfoType
    for public_info, private_info in ((False, kinds.SINGLE_PLAYER), (True, kinds.ALL_PLAYERS)):
        refused = pyspiel.IIGObservationType(
            public_info=public_info, perfect_recall=False, private_info=private_info
        )
        with pytest.raises(ValueError, match="not offered"):
            game.make_py_observer(refused)


@pytest.mark.parametrize("game_id", ["awimbawe", "auweier"])
def test_str_of_a_state_is_the_full_state(game_id: str) -> None:
    """Two states a spectator cannot tell apart (a redeal of all that is hidden) print
    differently: ``str`` shows the hidden cards too."""
    name = openspiel.openspiel_name(game_id)
    state = _played(name, seed=6, decisions=8)
    game = state.get_game()
    rules = state.rules_state
    belief = kit_of(game.rules).belief
    assert belief is not None
    other = game.state_of(belief.redeal(rules, None, random.Random(1)))
    assert other.rules_state.view(None) == rules.view(None)
    assert other.rules_state != rules
    assert str(other) != str(state)


@pytest.mark.parametrize(
    "name",
    [
        "spieltisch_awimbawe",
        "spieltisch_awimbawe(lands=2)",
        "spieltisch_auweier(players=3)",
        "spieltisch_auf_die_eier",
    ],
)
def test_resampling_keeps_the_history_and_the_information_state(name: str) -> None:
    """OpenSpiel's ``ResampleInfostateTest`` (C++, not in the Python bindings) in Python, and
    the history kept: at every decision of random games, a state resampled for each seat has
    the same information state (string and tensor) for it, the same seat to act, the same
    history and move number, and plays on."""
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    differed = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, chances)[0])
                continue
            for p in range(game.num_players()):
                sample = state.resample_from_infostate(p, rng.random)
                assert sample.information_state_string(p) == state.information_state_string(p)
                assert sample.information_state_tensor(p) == state.information_state_tensor(p)
                assert sample.current_player() == state.current_player()
                assert sample.history() == state.history()
                assert sample.move_number() == state.move_number()
                assert sample.legal_actions(p) == state.legal_actions(p)
                differed += sample.rules_state != state.rules_state
            state.apply_action(rng.choice(state.legal_actions()))
        sample = state.clone()
        assert sample.is_terminal()
    hidden = game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (differed > 0) == hidden


def test_a_resampled_state_plays_on_and_serializes() -> None:
    state = _played("spieltisch_awimbawe", seed=9, decisions=4)
    player = state.current_player()
    sample = state.resample_from_infostate(player, random.Random(2).random)
    game = sample.get_game()
    again = game.deserialize_state(sample.serialize())
    assert again.information_state_string(player) == sample.information_state_string(player)
    assert str(again) == str(sample)
    rng = random.Random(3)
    while not sample.is_terminal():
        if sample.is_chance_node():
            actions, chances = zip(*sample.chance_outcomes(), strict=True)
            sample.apply_action(rng.choices(actions, chances)[0])
        else:
            sample.apply_action(rng.choice(sample.legal_actions()))
    assert sum(sample.returns()) == pytest.approx(1.0)
