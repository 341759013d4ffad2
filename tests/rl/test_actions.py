"""The action-feature tables a factored action head reads (spieltisch.rl.actions)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spieltisch
from spieltisch.games.auf_die_eier.notation import Reroll
from spieltisch.rl.actions import DICE, action_features
from spieltisch.rl.policy import Policy, save_policy


def test_every_eier_action_has_its_own_row_saying_what_it_throws() -> None:
    game = spieltisch.load("auf-die-eier")
    table = action_features(game)
    assert table is not None
    assert table.shape == (game.num_distinct_actions, 1 + 6 * DICE)
    assert len({row.tobytes() for row in table}) == game.num_distinct_actions
    assert table[game.action_id(game.action_from_id(0)), 0] == 1.0
    assert table[0].sum() == 1.0
    faces = "WCPFH"
    for action_id in range(1, game.num_distinct_actions):
        row = table[action_id]
        assert row[0] == 0.0
        letters = str(game.action_from_id(action_id)).removeprefix("reroll ")
        for column, face in enumerate(faces):
            block = row[1 + column * DICE : 1 + (column + 1) * DICE]
            count = letters.count(face)
            assert block.sum() == (1.0 if count else 0.0)
            if count:
                assert block[count - 1] == 1.0
        total = row[1 + len(faces) * DICE :]
        assert total.sum() == 1.0 and total[len(letters) - 1] == 1.0


def test_a_reroll_of_two_pots_shares_its_pot_feature_with_other_rerolls() -> None:
    game = spieltisch.load("auf-die-eier")
    table = action_features(game)
    assert table is not None
    two_pots = table[game.action_id(Reroll.of("PP"))]
    with_a_worm = table[game.action_id(Reroll.of("WPP"))]
    shared = np.flatnonzero(two_pots * with_a_worm)
    assert list(shared) == [1 + 2 * DICE + 1]  # the P block's "two"


@pytest.mark.parametrize("game_id", ["auf-die-nuesse", "auweier", "awimbawe"])
def test_games_with_few_or_unrelated_ids_have_no_table(game_id: str) -> None:
    assert action_features(spieltisch.load(game_id)) is None


def test_a_factored_head_folds_into_one_plain_layer_of_the_policy_file(tmp_path: Path) -> None:
    game = spieltisch.load("auf-die-eier")
    table = action_features(game)
    assert table is not None
    rng = np.random.default_rng(3)
    f32 = np.float32
    hidden, observation = rng.normal(size=(8, 76)).astype(f32), rng.normal(size=(76,)).astype(f32)
    weights = rng.normal(size=(table.shape[1], 8)).astype(f32)
    bias = rng.normal(size=(table.shape[1],)).astype(f32)
    path = tmp_path / "p.npz"
    save_policy(path, game.info.id, [(hidden, np.zeros(8, f32)), (table @ weights, table @ bias)])
    expected = table @ (weights @ np.tanh(hidden @ observation) + bias)
    got = Policy(path).logits(observation)
    assert float(np.max(np.abs(got - expected))) < 1e-3
