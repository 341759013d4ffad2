"""Every change reaches every connection, whichever server process it came through.

Each process listens for the database's announcements
(:mod:`~spieltisch.web.cluster.announcements`): on PostgreSQL a ``LISTEN`` on one connection of its
own (psycopg's async notifications), on SQLite a look at the ``announcements`` table every
:data:`POLL` seconds by its index. An announcement for a table this process has in memory is queued;
a worker takes the queue up table by table (several announcements of one table are taken up once)
through the callback the live tables gave (:mod:`~spieltisch.web.tables.remote` brings the copy in
memory to what the database holds). This module knows tables only by their ids: what a table is, and
what taking one up means, is the tables' business.

A listener that loses its connection comes back with growing pauses and then has every table
in memory taken up once, since announcements may have been missed meanwhile; the upkeep's slow
look at the database (:mod:`~spieltisch.web.tables.upkeep`) remains as a net beneath all this.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Collection

from spieltisch.web.cluster import announcements
from spieltisch.web.cluster.announcements import KINDS
from spieltisch.web.store.database import Database

LOG = logging.getLogger("spieltisch.web")

POLL = 0.1
"""Seconds between two looks at an SQLite file's announcements."""
PRUNE = 30.0
"""Seconds between two prunings of an SQLite file's announcements."""
BACKOFF = (0.2, 10.0)
"""The first and the longest pause before a lost listener connects again."""

TakeUp = Callable[[str, set[str]], Awaitable[None]]
"""Bring the copy of a table (its id) in memory to what was announced of it (the kinds)."""


class Fanout:
    """One process's listener and the worker that takes up what it hears."""

    def __init__(
        self, database: Database, in_memory: Callable[[], Collection[str]], take_up: TakeUp
    ) -> None:
        self.database = database
        self.in_memory = in_memory
        """The ids of the tables this process holds in memory (the others are not its care)."""
        self.take_up = take_up
        self.pending: dict[str, set[str]] = {}
        self._wake = asyncio.Event()
        self.heard_count = 0
        """Announcements heard for tables in memory (for tests and the operator)."""
        self.listening = asyncio.Event()
        """Set while the listener is connected (PostgreSQL) or looking (SQLite)."""

    @property
    def postgres(self) -> bool:
        """Whether the database announces by ``NOTIFY``."""
        return self.database.engine.dialect.name == "postgresql"

    def tasks(self) -> list[asyncio.Task[None]]:
        """Start listening and working; the tasks, for the hub to cancel at the end."""
        listen = self._listen_postgres() if self.postgres else self._poll_sqlite()
        return [asyncio.create_task(listen), asyncio.create_task(self._working())]

    def heard(self, table_id: str, kind: str) -> None:
        """Queue an announcement, if its table is in memory here."""
        if kind in KINDS and table_id in self.in_memory():
            self.heard_count += 1
            self.pending.setdefault(table_id, set()).add(kind)
            self._wake.set()

    def everything(self) -> None:
        """Queue every table in memory whole (announcements may have been missed)."""
        for table_id in list(self.in_memory()):
            for kind in KINDS:
                self.heard(table_id, kind)

    # --- hearing ---------------------------------------------------------------------------

    async def _listen_postgres(self) -> None:
        import psycopg  # noqa: PLC0415 - only a PostgreSQL deployment listens

        address = announcements.listen_address(self.database.url)
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
        database = self.database
        last: int = await database.read(announcements.latest, database.reader)
        since_prune = 0.0
        self.listening.set()
        while True:
            await asyncio.sleep(POLL)
            try:
                rows = await database.read(announcements.read_after, database.reader, last)
                for number, table_id, kind in rows:
                    last = number
                    self.heard(table_id, kind)
                since_prune += POLL
                if since_prune >= PRUNE:
                    since_prune = 0.0
                    await database.write(announcements.prune, database.engine)
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


async def stop(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the fan-out's tasks and wait for them (a listener closes its connection)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
