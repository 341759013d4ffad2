"""Who is at a table: each person seat connected or away (and since when).

A server knows its own open sockets; what other servers sharing the database know reaches it
through the ``presence`` table, where each server keeps, per seat, how many connections it has
open and when it last saw the seat connected (a heartbeat rewrites it while they stay open).
A seat is connected when any server has a connection open for it and said so recently; it is
away since the last time any server saw it. Times come from the server's clock, so that
tests move them on without sleeping. Nothing here reads the game: presence carries no hidden
information.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from spieltisch.web.cluster.announcements import announce
from spieltisch.web.store.db import PRESENCE
from spieltisch.web.tables.clock import Clock
from spieltisch.web.tables.table import LiveTable

STALE_AFTER = 20.0
"""Seconds after which another server's word that a seat is connected no longer counts (a
server killed without closing its sockets keeps no seat connected for longer)."""
PRESENCE_BATCH = 100
"""Tables whose presence one write transaction stores."""

Seen = dict[int, tuple[int, float]]
"""Per seat: connections open, and when last seen connected."""


class Presence:
    """This server's view of who is connected where (see the module docstring)."""

    def __init__(self, server: str, clock: Clock) -> None:
        self.server = server
        self.clock = clock
        self.remote: dict[str, Seen] = {}
        """What the other servers said, per table."""
        self.last_seen: dict[tuple[str, int], float] = {}
        """When this server last had each seat connected."""
        self.dirty: set[str] = set()
        """Tables whose connections here changed since this server last wrote them."""

    def local(self, live: LiveTable, seat: int) -> int:
        """This server's open connections for ``seat``."""
        return sum(1 for c in live.connections if c.viewer == seat and not c.closed)

    def connected(self, live: LiveTable, seat: int) -> bool:
        """Whether any server has ``seat`` open."""
        if self.local(live, seat):
            return True
        count, seen = self.remote.get(live.id, {}).get(seat, (0, 0.0))
        return count > 0 and seen >= self.clock.now() - STALE_AFTER

    def touched(self, live: LiveTable, seat: int | None) -> None:
        """A connection of ``seat`` opened or closed here."""
        if seat is not None:
            self.last_seen[(live.id, seat)] = self.clock.now()
            self.dirty.add(live.id)

    def update(self, live: LiveTable) -> bool:
        """Bring each person seat's away time up to date; True if any seat came or went."""
        now = self.clock.now()
        changed = False
        for seat in live.seats:
            if not seat.person:
                if live.away_since.pop(seat.seat, None) is not None:
                    changed = True
                continue
            if self.connected(live, seat.seat):
                changed |= live.away_since.pop(seat.seat, None) is not None
            elif seat.seat not in live.away_since:
                live.away_since[seat.seat] = self._last_seen(live, seat.seat, now)
                changed = True
        return changed

    def _last_seen(self, live: LiveTable, seat: int, now: float) -> float:
        times = [self.last_seen.get((live.id, seat), 0.0)]
        times.append(self.remote.get(live.id, {}).get(seat, (0, 0.0))[1])
        seen = max(times)
        return seen if seen > 0 else now

    def seats_json(self, live: LiveTable) -> list[dict[str, Any]]:
        """Each seat's presence as pages show it: connected, or away since when (the page
        counts the time itself, so the message changes only when someone comes or goes)."""
        shown: list[dict[str, Any]] = []
        for seat in live.seats:
            since = live.away_since.get(seat.seat) if seat.person else None
            connected = None if not seat.person else since is None
            shown.append({"connected": connected, "away_since": since})
        return shown

    def counts(self, live: LiveTable) -> dict[int, int]:
        """This server's open connections per person seat (for the database)."""
        return {s.seat: self.local(live, s.seat) for s in live.seats if s.person}

    def forget(self, table_id: str) -> None:
        """Drop what is kept of a table that left this server's memory."""
        self.remote.pop(table_id, None)
        self.dirty.discard(table_id)
        for key in [k for k in self.last_seen if k[0] == table_id]:
            del self.last_seen[key]


# --- kept in the database -------------------------------------------------------------------


def write_presence(
    engine: Engine, server: str, tables: dict[str, dict[int, int]], at: float
) -> None:
    """Store this server's open connections per seat of each table (seen now where open), in
    a few statements whatever the number of tables (the writer serves moves too)."""
    ids = list(tables)
    for start in range(0, len(ids), PRESENCE_BATCH):
        chunk = ids[start : start + PRESENCE_BATCH]
        mine = (PRESENCE.c.table_id.in_(chunk)) & (PRESENCE.c.server == server)
        with engine.begin() as db:
            columns = (PRESENCE.c.table_id, PRESENCE.c.seat, PRESENCE.c.connections,
                       PRESENCE.c.seen_at)  # fmt: skip
            old = {
                (r.table_id, r.seat): (int(r.connections), float(r.seen_at))
                for r in db.execute(sa.select(*columns).where(mine))
            }
            db.execute(PRESENCE.delete().where(mine))
            rows = [
                {
                    "table_id": table_id, "seat": seat, "server": server, "connections": count,
                    "seen_at": at if count else old.get((table_id, seat), (0, at))[1],
                }
                for table_id in chunk
                for seat, count in tables[table_id].items()
            ]  # fmt: skip
            if rows:
                db.execute(PRESENCE.insert(), rows)
            now = {(r["table_id"], r["seat"]): r["connections"] for r in rows}
            came_or_went = {t for (t, seat), (n, _) in old.items() if now.get((t, seat), 0) != n}
            came_or_went |= {
                t for (t, seat), n in now.items() if old.get((t, seat), (0, 0))[0] != n
            }
            announce(db, came_or_went, "presence")


def read_presence(engine: Engine, table_ids: Sequence[str], server: str) -> dict[str, Seen]:
    """What the other servers keep of the seats of ``table_ids``: per table and seat, their
    connections in all and when one of them last saw it."""
    if not table_ids:
        return {}
    found: dict[str, Seen] = {}
    with engine.connect() as db:
        rows = db.execute(
            sa.select(PRESENCE).where(
                PRESENCE.c.table_id.in_(list(table_ids)), PRESENCE.c.server != server
            )
        ).mappings()
        for row in rows:
            seats = found.setdefault(row["table_id"], {})
            count, seen = seats.get(row["seat"], (0, 0.0))
            seats[row["seat"]] = (count + row["connections"], max(seen, row["seen_at"]))
    return found


def clear_presence(engine: Engine, server: str) -> None:
    """Forget this server's rows (it is stopping: it holds no connection any more)."""
    with engine.begin() as db:
        mine = PRESENCE.c.server == server
        held = db.execute(sa.select(PRESENCE.c.table_id).where(mine, PRESENCE.c.connections > 0))
        tables = {str(t) for t in held.scalars()}
        db.execute(PRESENCE.delete().where(mine))
        announce(db, tables, "presence")
