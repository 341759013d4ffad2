"""The registry of games: one line per game, looked up by game id.

Games are named by the module that defines them, so nothing here imports a game until it is
loaded. A reserved id names a game whose rules are not implemented yet; loading it raises
:class:`GameNotImplementedError`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from spieltisch.core.errors import GameNotImplementedError, UnknownGameError
from spieltisch.core.game import Game


@dataclass(frozen=True, slots=True)
class Entry:
    """One registered game id: the module that defines it, or ``None`` while only reserved."""

    id: str
    name: str
    module: str | None


class Registry:
    """Game ids in registration order, each with the module whose ``GAME`` is its class."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}

    def add(self, game_id: str, name: str, module: str) -> None:
        """Register the game class ``GAME`` of ``module`` under ``game_id``."""
        self._entries[game_id] = Entry(game_id, name, module)

    def reserve(self, game_id: str, name: str) -> None:
        """Reserve ``game_id`` for a game whose rules are not implemented yet."""
        self._entries[game_id] = Entry(game_id, name, None)

    def entries(self) -> tuple[Entry, ...]:
        """Every registered or reserved id, in registration order."""
        return tuple(self._entries.values())

    def implemented(self) -> tuple[str, ...]:
        """The ids of the games that can be loaded."""
        return tuple(e.id for e in self._entries.values() if e.module is not None)

    def game_class(self, game_id: str) -> type[Game]:
        """The :class:`Game` subclass registered under ``game_id``."""
        entry = self._entries.get(game_id)
        if entry is None:
            known = ", ".join(self._entries)
            raise UnknownGameError(f"unknown game {game_id!r} (games: {known})")
        if entry.module is None:
            raise GameNotImplementedError(f"{entry.name} ({game_id}) is not implemented yet")
        game_class: type[Game] = importlib.import_module(entry.module).GAME
        return game_class
