"""What the concerns beside the hub (seats, takeovers, rematches) may ask of it.

The hub (:class:`spieltisch.web.tables.hub.Hub`) provides all of this; the concerns see only this
protocol, so that none of them imports the hub and the hub imports each of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from spieltisch.web.tables.clock import Clock
from spieltisch.web.tables.table import LiveTable


class Services(Protocol):
    """The hub's side of the concerns' work."""

    engine: Engine
    """Writes go here (on the one writer thread)."""
    reader: Engine
    """Reads go here: they never take the writer's lock."""
    clock: Clock

    async def write(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database write on the one writer thread."""
        ...

    async def read(self, function: Callable[..., Any], *args: Any) -> Any:
        """Run a database read in a worker thread."""
        ...

    async def broadcast(self, live: LiveTable) -> None:
        """Send every connection of the table what it has not seen yet, and the seats."""
        ...

    def schedule(self, live: LiveTable) -> None:
        """Start the bot of the seat to move, if a bot moves for it and none thinks yet."""
        ...

    async def note(self, live: LiveTable, kind: str, seat: int | None, text: str) -> None:
        """Keep a note with the table and show it to every page that may see it."""
        ...

    async def commit(self, live: LiveTable, start: int) -> None:
        """Draw the chance now due and commit every move since version ``start`` before
        anyone sees it (the caller holds the table's lock)."""
        ...

    async def reload(self, live: LiveTable) -> None:
        """Take the table up again as the database holds it (the caller holds its lock)."""
        ...
