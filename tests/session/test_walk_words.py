"""A walk over a table's moves reads the same in the game's words however few states it keeps.

A live table keeps only some past states and rebuilds the others; a game's words may tell
what a move changed by comparing the parts of the views before and after it. Every walk
therefore runs along one chain of states, and the sentences must not depend on where the
kept states lie.
"""

from __future__ import annotations

import pytest

import spieltisch
from spieltisch.games import REGISTRY
from spieltisch.session import Table
from spieltisch.web.tables.payload import events_for
from tests.random_games import random_game


def played(game_id: str, players: int, history: int | None, seed: int) -> Table:
    return random_game(spieltisch.load(game_id, players), seed, history=history)


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("auf-die-eier", 3), ("auf-die-nuesse", 2), ("auweier", 3), ("awimbawe", 2)],
)
@pytest.mark.parametrize("history", [1, 5])
def test_every_sentence_is_the_same_whatever_history_is_kept(
    game_id: str, players: int, history: int
) -> None:
    full, short = played(game_id, players, None, 21), played(game_id, players, history, 21)
    words = REGISTRY.kit(game_id).words
    outcomes = 0
    for viewer in (None, 0, 1):
        for since in (0, 3, full.version // 2, full.version - 2):
            expected = events_for(full, words, viewer, since)
            assert events_for(short, words, viewer, since) == expected
            outcomes += sum(1 for item in expected if isinstance(item, dict) and item["outcome"])
    assert outcomes > 0  # the words did tell what moves brought about
