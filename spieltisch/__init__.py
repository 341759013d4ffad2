"""spieltisch: four published tabletop games on one pure rules engine.

>>> import spieltisch
>>> game = spieltisch.load("auf-die-eier", players=2)
>>> game.initial_state().is_chance()
True
"""

from __future__ import annotations

from pathlib import Path

from spieltisch.core.codec import JSON, to_jsonable
from spieltisch.core.errors import (
    GameNotImplementedError,
    IllegalActionError,
    InvalidActionError,
    NotEnumerableError,
    OptionError,
    RecordError,
    SpieltischError,
    UnknownGameError,
)
from spieltisch.core.fast import reduce_compiled
from spieltisch.core.game import Game, GameInfo, Move, NodeKind, OptionValue, PlayerId, State
from spieltisch.core.record import Record, option_values, replay
from spieltisch.games import REGISTRY

__all__ = [
    "Game",
    "GameInfo",
    "GameNotImplementedError",
    "IllegalActionError",
    "InvalidActionError",
    "Move",
    "NodeKind",
    "NotEnumerableError",
    "OptionError",
    "PlayerId",
    "Record",
    "RecordError",
    "SpieltischError",
    "State",
    "UnknownGameError",
    "game_ids",
    "load",
    "load_record",
    "replay",
    "rules_page",
    "state_from_json",
    "to_jsonable",
]

__version__ = "0.1.0"

reduce_compiled("spieltisch")  # the compiled build's values copy and pickle (a no-op if pure)


def game_ids() -> tuple[str, ...]:
    """Every reserved game id, implemented or not, in registration order."""
    return tuple(entry.id for entry in REGISTRY.entries())


def load(game_id: str, players: int | None = None, **options: OptionValue) -> Game:
    """The game ``game_id`` for ``players`` players (its default count if omitted).

    Raises :class:`UnknownGameError`, :class:`GameNotImplementedError` or :class:`OptionError`.
    """
    return REGISTRY.game_class(game_id)(players, **options)


RULES_DIR = Path(__file__).parent / "rules"
"""The rules pages shipped with the package, one Markdown file per game id."""


def rules_page(game_id: str) -> str:
    """The rules page of ``game_id`` in Markdown, or an empty text if there is none."""
    path = RULES_DIR / f"{game_id}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def load_record(record: Record) -> Game:
    """The game a record was played in; :class:`RecordError` if it cannot be loaded."""
    try:
        return load(record.game, record.players, **record.options)
    except SpieltischError as error:
        raise RecordError(str(error)) from None


def state_from_json(data: JSON) -> State:
    """Rebuild any game's state from :meth:`State.to_json` data; :class:`ValueError` if bad."""
    if not isinstance(data, dict):
        raise ValueError("state data is a JSON object")
    game_id, players, options = data.get("game"), data.get("players"), data.get("options")
    if (
        not isinstance(game_id, str)
        or not isinstance(players, int)
        or not isinstance(options, dict)
    ):
        raise ValueError("state data must name its game, player count and options")
    try:
        values = option_values(options)
    except RecordError as error:
        raise ValueError(str(error)) from None
    return load(game_id, players, **values).state_from_json(data)
