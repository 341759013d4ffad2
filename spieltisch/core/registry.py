"""The registry of games: one line per game, looked up by game id.

Each line names the package that defines the game, so nothing here imports a game until it is
asked for; the package declares its :class:`GameKit` as ``KIT``, the one name read from it. A
reserved id names a game whose rules are not implemented yet; loading it raises
:class:`GameNotImplementedError`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from spieltisch.core.errors import GameNotImplementedError, UnknownGameError
from spieltisch.core.game import Game
from spieltisch.core.kit import GameKit


@dataclass(frozen=True, slots=True)
class Entry:
    """One registered game id: the package that defines it, or ``None`` while only reserved."""

    id: str
    name: str
    package: str | None


class Registry:
    """Game ids in registration order, each with the package whose ``KIT`` is its kit."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}
        self._kits: dict[str, GameKit[Any]] = {}

    def add(self, game_id: str, name: str, package: str) -> None:
        """Register the game whose package ``package`` declares ``KIT``, under ``game_id``."""
        self._entries[game_id] = Entry(game_id, name, package)

    def reserve(self, game_id: str, name: str) -> None:
        """Reserve ``game_id`` for a game whose rules are not implemented yet."""
        self._entries[game_id] = Entry(game_id, name, None)

    def entries(self) -> tuple[Entry, ...]:
        """Every registered or reserved id, in registration order."""
        return tuple(self._entries.values())

    def implemented(self) -> tuple[str, ...]:
        """The ids of the games that can be loaded."""
        return tuple(e.id for e in self._entries.values() if e.package is not None)

    def kit(self, game_id: str) -> GameKit[Any]:
        """The kit of the game registered under ``game_id``."""
        kit = self._kits.get(game_id)
        if kit is not None:
            return kit
        entry = self._entries.get(game_id)
        if entry is None:
            known = ", ".join(self._entries)
            raise UnknownGameError(f"unknown game {game_id!r} (games: {known})")
        if entry.package is None:
            raise GameNotImplementedError(f"{entry.name} ({game_id}) is not implemented yet")
        kit = importlib.import_module(entry.package).KIT
        if not isinstance(kit, GameKit) or kit.id != game_id:
            raise TypeError(f"{entry.package}.KIT is not the GameKit of {game_id}")
        self._kits[game_id] = kit
        return kit

    def game_class(self, game_id: str) -> type[Game]:
        """The :class:`Game` subclass registered under ``game_id``."""
        return self.kit(game_id).game
