"""One table, one mover: which server process runs a table's bots and watches its clock.

Server processes sharing a database each keep the tables their pages use in memory, so more
than one may hold the same table. Only the one holding the table's lease (a row of
``leases``: the server and until when) thinks for its bots and hands a seat whose time ran
out to a stand-in; the others show the table and take moves from their people, which every
process may do (a move is committed by compare-and-set, whoever sends it). A process takes
the lease of a table it loads when none holds it or its holder let it lapse, renews the ones
it holds every :data:`RENEW` seconds for :data:`TERM`, and gives them up when it forgets the
table or stops. A process killed without a word holds its leases until they lapse: then any
process that has the table in memory takes it over, and a lapsed lease of a table nobody has
in memory (a bots' game whose holder died) is found by the next look for orphans, which
loads the table and moves it on. Times are each process's wall clock: processes on more than
one machine need their clocks kept in step (NTP), as any lease does.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine

from spieltisch.web.store.database import Database
from spieltisch.web.store.db import LEASES, TABLES

TERM = 6.0
"""Seconds a lease lasts without renewal: how long a killed process's tables wait."""
RENEW = 2.0
"""Seconds between two renewals (and two looks for orphaned tables)."""
RETRY = 1.0
"""Seconds before a process that was refused a table's lease asks again on its own."""
ORPHANS = 50
"""Orphaned tables one look takes up at most."""


# --- kept in the database -------------------------------------------------------------------


def claim(engine: Engine, server: str, table_ids: Sequence[str], now: float) -> set[str]:
    """Take or renew the leases of ``table_ids`` where free, lapsed or ``server``'s own; the
    ones ``server`` holds afterwards."""
    if not table_ids:
        return set()
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    rows = [{"table_id": t, "server": server, "until": now + TERM} for t in table_ids]
    upsert = dialect.insert(LEASES)
    upsert = upsert.on_conflict_do_update(
        index_elements=[LEASES.c.table_id],
        set_={"server": upsert.excluded.server, "until": upsert.excluded.until},
        where=(LEASES.c.until < now) | (LEASES.c.server == server),
    )
    with engine.begin() as db:
        db.execute(upsert, rows)
        held = db.execute(
            sa.select(LEASES.c.table_id).where(
                LEASES.c.table_id.in_(list(table_ids)), LEASES.c.server == server
            )
        ).scalars()
        return {str(t) for t in held}


def release(engine: Engine, server: str, table_ids: Sequence[str] | None = None) -> None:
    """Give up ``server``'s leases of ``table_ids`` (all of them if ``None``)."""
    mine = LEASES.c.server == server
    if table_ids is not None:
        if not table_ids:
            return
        mine &= LEASES.c.table_id.in_(list(table_ids))
    with engine.begin() as db:
        db.execute(LEASES.delete().where(mine))


def orphaned(engine: Engine, now: float, limit: int = ORPHANS) -> list[str]:
    """Tables being played whose lease lapsed (their holder died or stalled)."""
    with engine.connect() as db:
        rows = db.execute(
            sa.select(LEASES.c.table_id)
            .join(TABLES, TABLES.c.id == LEASES.c.table_id)
            .where(LEASES.c.until < now, TABLES.c.status == "playing")
            .order_by(LEASES.c.until)
            .limit(limit)
        ).scalars()
        return [str(t) for t in rows]


def holder(engine: Engine, table_id: str) -> tuple[str, float] | None:
    """Who holds ``table_id``'s lease and until when (for tests and the operator)."""
    with engine.connect() as db:
        row = db.execute(
            sa.select(LEASES.c.server, LEASES.c.until).where(LEASES.c.table_id == table_id)
        ).first()
    return None if row is None else (str(row[0]), float(row[1]))


# --- one server's leases --------------------------------------------------------------------


class Leasable(Protocol):
    """A table as the leases see it: whether it is being played."""

    status: str


class Leases:
    """The tables this server moves (see the module docstring), known by their ids: the
    live tables hand in where they keep theirs, what starts a table's bot, and what loads a
    table nobody holds."""

    def __init__(
        self,
        server: str,
        database: Database,
        tables: Mapping[str, Leasable],
        start: Callable[[str], None],
        adopt: Callable[[str], Awaitable[None]],
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.server, self.database, self.tables = server, database, tables
        self.start = start
        """Start the bot of a table in memory (its lease just came)."""
        self.adopt = adopt
        """Load an orphaned table (one nobody holds in memory) and move it on."""
        self.wall = wall
        self.held: set[str] = set()
        self._asked: dict[str, float] = {}
        self._asking: set[asyncio.Task[None]] = set()

    def holds(self, table_id: str) -> bool:
        """Whether this server moves the table's bots and watches its clock."""
        return table_id in self.held

    async def take(self, table_id: str) -> bool:
        """Take the table's lease if it is free or lapsed; whether this server holds it."""
        self._asked[table_id] = time.monotonic()
        got: set[str] = await self.database.write(
            claim, self.database.engine, self.server, [table_id], self.wall()
        )
        if table_id in got:
            self.held.add(table_id)
        else:
            self.held.discard(table_id)
        return table_id in got

    def want(self, table_id: str) -> None:
        """Ask for the table's lease in the background (at most every :data:`RETRY`
        seconds) and start its bot if it comes."""
        if time.monotonic() - self._asked.get(table_id, -RETRY) < RETRY:
            return
        self._asked[table_id] = time.monotonic()

        async def ask() -> None:
            if await self.take(table_id):
                self.start(table_id)

        task = asyncio.create_task(ask())
        self._asking.add(task)
        task.add_done_callback(self._asking.discard)

    async def renewing(self) -> None:
        """Renew, take over and give up leases every :data:`RENEW` seconds."""
        while True:
            await asyncio.sleep(RENEW)
            with contextlib.suppress(Exception):
                await self.renew_once()

    async def renew_once(self) -> None:
        """One round: renew the leases of the tables being played here (taking lapsed ones),
        give up those of tables no longer in memory or over, start what came, and take up
        orphaned tables."""
        database, server = self.database, self.server
        playing = [key for key, table in self.tables.items() if table.status == "playing"]
        dropped = [t for t in self.held if t not in playing]
        if dropped:
            await database.write(release, database.engine, server, dropped)
        before = self.held
        got: set[str] = await database.write(claim, database.engine, server, playing, self.wall())
        self.held = got | (self.held - set(playing) - set(dropped))  # | taken meanwhile
        for table_id in self.held - before:
            if table_id in self.tables:
                self.start(table_id)
        for key in [k for k in self._asked if k not in self.tables]:
            del self._asked[key]
        for table_id in await database.read(orphaned, database.reader, self.wall()):
            if table_id not in self.tables:
                await self.adopt(table_id)  # loading takes the lease if it is still free

    async def close(self) -> None:
        """Give up every lease (the server stops: another may move its tables at once)."""
        for task in list(self._asking):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.database.write(release, self.database.engine, self.server, None)
        self.held = set()
