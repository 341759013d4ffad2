"""Golden action-id tables: RL agents trained on ids depend on them, so none may move.

Each game's file lists every action id with its action's canonical text. The table must be
the same at every player count and with every option value; a reordered, added or removed
action fails here (an intended change rewrites the file and says why in its commit).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import spieltisch
from spieltisch.core.game import OptionValue
from spieltisch.games import REGISTRY

TABLES = Path(__file__).parent / "action_ids"


def _settings(game_id: str) -> list[tuple[int, dict[str, OptionValue]]]:
    info = REGISTRY.game_class(game_id).info
    settings: list[tuple[int, dict[str, OptionValue]]] = [
        (n, {}) for n in range(info.min_players, info.max_players + 1)
    ]
    for spec in info.options:
        values = spec.choices or ((not spec.default,) if isinstance(spec.default, bool) else ())
        settings += [(info.default_players, {spec.name: v}) for v in values if v != spec.default]
    return settings


@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_action_ids_are_the_golden_ones(game_id: str) -> None:
    lines = (TABLES / f"{game_id}.txt").read_text(encoding="utf-8").splitlines()[1:]
    golden = [line.split(" ", 1)[1] for line in lines]
    assert [int(line.split(" ", 1)[0]) for line in lines] == list(range(len(golden)))
    for players, options in _settings(game_id):
        game = spieltisch.load(game_id, players, **options)
        assert game.num_distinct_actions == len(golden), (players, options)
        table = [str(game.action_from_id(i)) for i in range(len(golden))]
        assert table == golden, f"{game_id} {players}p {options}: action ids moved"
        assert all(game.action_id(game.action_from_id(i)) == i for i in range(len(golden)))
