"""Every change reaches every connection, whichever server process it came through.

Each process listens for the database's announcements (:mod:`~spieltisch.web.announcements`):
on PostgreSQL a ``LISTEN`` on one connection of its own (psycopg's async notifications), on
SQLite a look at the ``announcements`` table every :data:`POLL` seconds by its index. An
announcement for a table this process has in memory is queued; a worker takes the queue up
table by table (several announcements of one table are taken up once) and brings the copy in
memory to what the database holds:

- **the table, its seats, its votes** (a move, an end, a seat changing hands, a revoked link,
  a stand-in, a clock's bank, a vote, a rematch): the stored row and seats are compared under
  the table's lock with the copy; if the copy is behind, the table is taken up again (pages
  whose link stopped working are told why and closed), its pages are sent what is new, and
  its bot is started if this process moves it (:mod:`~spieltisch.web.leases`). A process's own
  changes compare equal and cost one small read;
- **notes**: the notes after the last one this process showed are sent to the pages that may
  read them;
- **presence**: the other processes' connections per seat are read again, and the pages are
  told if someone came or went.

A listener that loses its connection comes back with growing pauses and then takes up every
table in memory once, since announcements may have been missed meanwhile; the upkeep's slow
look at the database (:mod:`~spieltisch.web.upkeep`) remains as a net beneath all this.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from spieltisch.core.errors import SpieltischError
from spieltisch.web import announcements, chat, store
from spieltisch.web.announcements import KINDS
from spieltisch.web.presence import Presence, read_presence
from spieltisch.web.settings import Settings
from spieltisch.web.tables import LiveTable
from spieltisch.web.takeover import load_votes

LOG = logging.getLogger("spieltisch.web")

POLL = 0.1
"""Seconds between two looks at an SQLite file's announcements."""
PRUNE = 30.0
"""Seconds between two prunings of an SQLite file's announcements."""
BACKOFF = (0.2, 10.0)
"""The first and the longest pause before a lost listener connects again."""
STATE = frozenset({"table", "seats", "votes"})
"""Kinds that may change the table, its seats or its votes."""


class FanoutHub(Protocol):
    """What the fan-out needs of the hub."""

    settings: Settings
    server: str
    engine: Engine
    reader: Engine
    tables: dict[str, LiveTable]
    presence: Presence

    async def write(self, function: Callable[..., Any], *args: Any) -> Any: ...

    async def read(self, function: Callable[..., Any], *args: Any) -> Any: ...

    async def reload(self, live: LiveTable) -> None: ...

    async def broadcast(self, live: LiveTable) -> None: ...

    def schedule(self, live: LiveTable) -> None: ...


def matches(side: store.TableSide, live: LiveTable) -> bool:
    """Whether ``live`` holds the table as ``side`` found it stored (or further on: read
    before the copy's own latest commit)."""
    if live.behind((side.status, side.version, side.epoch)):
        return False
    if side.version != live.committed or side.epoch != live.epoch:
        return True
    stored = (side.seats, side.turn_since, side.rematch, side.hints)
    return stored == (tuple(live.seats), live.turn_since, live.rematch, live.hints)


class Fanout:
    """One process's listener and the worker that takes up what it hears."""

    def __init__(self, hub: FanoutHub) -> None:
        self.hub = hub
        self.pending: dict[str, set[str]] = {}
        self._wake = asyncio.Event()
        self.heard_count = 0
        """Announcements heard for tables in memory (for tests and the operator)."""
        self.listening = asyncio.Event()
        """Set while the listener is connected (PostgreSQL) or looking (SQLite)."""

    @property
    def postgres(self) -> bool:
        """Whether the database announces by ``NOTIFY``."""
        return self.hub.engine.dialect.name == "postgresql"

    def tasks(self) -> list[asyncio.Task[None]]:
        """Start listening and working; the tasks, for the hub to cancel at the end."""
        listen = self._listen_postgres() if self.postgres else self._poll_sqlite()
        return [asyncio.create_task(listen), asyncio.create_task(self._working())]

    def heard(self, table_id: str, kind: str) -> None:
        """Queue an announcement, if its table is in memory here."""
        if table_id in self.hub.tables and kind in KINDS:
            self.heard_count += 1
            self.pending.setdefault(table_id, set()).add(kind)
            self._wake.set()

    def everything(self) -> None:
        """Queue every table in memory whole (announcements may have been missed)."""
        for table_id in list(self.hub.tables):
            for kind in KINDS:
                self.heard(table_id, kind)

    # --- hearing ---------------------------------------------------------------------------

    async def _listen_postgres(self) -> None:
        import psycopg  # noqa: PLC0415 - only a PostgreSQL deployment listens

        address = announcements.listen_address(self.hub.settings.database_url())
        pause = BACKOFF[0]
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    address, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {announcements.CHANNEL}")
                    self.listening.set()
                    pause = BACKOFF[0]
                    self.everything()
                    async for notice in connection.notifies():
                        said = announcements.parse(notice.payload)
                        if said is not None:
                            self.heard(*said)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: listen again when it is back
                LOG.warning("announcements: listener lost (%s); again in %.1f s", error, pause)
            self.listening.clear()
            await asyncio.sleep(pause)
            pause = min(BACKOFF[1], pause * 2)

    async def _poll_sqlite(self) -> None:
        hub = self.hub
        last: int = await hub.read(announcements.latest, hub.reader)
        since_prune = 0.0
        self.listening.set()
        while True:
            await asyncio.sleep(POLL)
            try:
                rows = await hub.read(announcements.read_after, hub.reader, last)
                for number, table_id, kind in rows:
                    last = number
                    self.heard(table_id, kind)
                since_prune += POLL
                if since_prune >= PRUNE:
                    since_prune = 0.0
                    await hub.write(announcements.prune, hub.engine)
            except Exception as error:  # a locked or vanished file: look again next time
                LOG.warning("announcements: could not read them (%s)", error)

    # --- taking up -------------------------------------------------------------------------

    async def _working(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self.pending = self.pending, {}
            for table_id, kinds in batch.items():
                try:
                    await self.take_up(table_id, kinds)
                except Exception:  # one table's trouble must not stop the others
                    LOG.exception("announcements: table %s could not be taken up", table_id)

    async def take_up(self, table_id: str, kinds: set[str]) -> None:
        """Bring the copy of ``table_id`` in memory to what was announced of it."""
        live = self.hub.tables.get(table_id)
        if live is None:
            return
        if kinds & STATE:
            await self._state(live, "votes" in kinds)
        if "notes" in kinds:
            await self._notes(live)
        if "presence" in kinds:
            await self._presence(live)

    async def _state(self, live: LiveTable, votes: bool) -> None:
        hub = self.hub
        async with live.lock:
            side = await hub.read(store.side_of, hub.reader, live.id)
            if side is None:
                return
            changed = not matches(side, live)
            if votes:
                stored = await hub.read(load_votes, hub.reader, live.id)
                changed |= stored != live.votes
            if changed and not await self._extend(live, side):
                await hub.reload(live)
        if changed:
            await hub.broadcast(live)
            hub.schedule(live)

    async def _extend(self, live: LiveTable, side: store.TableSide) -> bool:
        """Bring ``live`` up to ``side`` by the moves it lacks, when nothing else changed
        that a page must be told of apart from them (the same people in the same seats, the
        game going on); whether it could (else the table is taken up again whole)."""
        people = [(s.token_hash, s.name, s.conceded_at) for s in side.seats]
        if (
            side.status != "playing"
            or live.status != "playing"
            or side.epoch != live.epoch
            or side.version <= live.committed
            or (side.rematch, side.hints) != (live.rematch, live.hints)
            or people != [(s.token_hash, s.name, s.conceded_at) for s in live.seats]
        ):
            return False
        moves = await self.hub.read(
            store.moves_between, self.hub.reader, live.id, live.committed, side.version
        )
        try:
            live.table.extend(moves)
        except SpieltischError:
            return False  # the caller takes the table up whole
        live.committed = live.table.version
        live.seats, live.turn_since = list(side.seats), side.turn_since
        live.steps.update(live.table)
        live.last_move_at = live.touched = time.monotonic()
        return live.committed == side.version

    async def _notes(self, live: LiveTable) -> None:
        notes = await self.hub.read(chat.load_notes, self.hub.reader, live.id, live.notes_seen)
        fresh = [n for n in notes if n.idx > live.notes_seen]
        if not fresh:
            return
        live.notes_seen = max(n.idx for n in fresh)
        names = live.names()
        for connection in list(live.connections):
            shown = chat.visible(fresh, live.rules.chat, connection.viewer)
            if shown:
                connection.send(chat.notes_message(shown, names))

    async def _presence(self, live: LiveTable) -> None:
        hub = self.hub
        remote = await hub.read(read_presence, hub.reader, [live.id], hub.server)
        hub.presence.remote[live.id] = remote.get(live.id, {})
        if hub.presence.update(live):
            await hub.broadcast(live)


async def stop(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the fan-out's tasks and wait for them (a listener closes its connection)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
