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
from spieltisch.core.game import Game, GameInfo, Move, NodeKind, OptionValue, PlayerId, State
from spieltisch.core.record import Record, option_values, replay
from spieltisch.games import REGISTRY
from spieltisch.locale import LANGUAGES, LanguageError
from spieltisch.native.build import available as native_available
from spieltisch.native.build import status as native_status

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
    "about",
    "game_ids",
    "load",
    "load_record",
    "replay",
    "rules_page",
    "state_from_json",
    "to_jsonable",
]

__version__ = "0.1.0"


def game_ids() -> tuple[str, ...]:
    """Every reserved game id, implemented or not, in registration order."""
    return tuple(entry.id for entry in REGISTRY.entries())


def load(game_id: str, players: int | None = None, **options: OptionValue) -> Game:
    """The game ``game_id`` for ``players`` players (its default count if omitted).

    Raises :class:`UnknownGameError`, :class:`GameNotImplementedError` or :class:`OptionError`.
    """
    return REGISTRY.game_class(game_id)(players, **options)


PACKAGE_DIR = Path(__file__).parent

RULES_DIR = PACKAGE_DIR / "rules"
"""The rules pages shipped with the package, one Markdown file per game id and language:
``<game>.md`` in English, ``<game>.<language>.md`` in each other language."""


def rules_page(game_id: str, language: str = "en") -> str:
    """The rules page of ``game_id`` in Markdown, in ``language`` (one of
    :data:`spieltisch.locale.LANGUAGES`); the English page if that language has none, and an
    empty text if there is no page at all. :class:`~spieltisch.locale.LanguageError` (a
    :class:`ValueError`) for a language spieltisch does not speak."""
    if language not in LANGUAGES:
        raise LanguageError(f"rules pages are in {', '.join(LANGUAGES)}, not {language[:20]!r}")
    paths = [RULES_DIR / f"{game_id}.md"]  # English, the source language
    if language != "en":
        paths.insert(0, RULES_DIR / f"{game_id}.{language}.md")
    path = next((path for path in paths if path.is_file()), None)
    return path.read_text(encoding="utf-8") if path is not None else ""


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


def about() -> dict[str, JSON]:
    """This installation in a few facts (``spieltisch --version``, an about page): the
    version, its build (``native`` where the native core is installed and loads, else
    ``pure``: the Python engine alone) and the native core's status in words."""
    native = native_available()
    return {
        "version": __version__,
        "build": "native" if native else "pure",
        "native": native,
        "native_core": native_status(),
    }
