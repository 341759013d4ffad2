"""The server's work between requests: the clocks, what other servers changed, who is
connected where, and forgetting what is no longer needed.

- **Clocks**: every playing table in memory whose lease this server holds
  (:mod:`~spieltisch.web.cluster.leases`) is looked at twice a second; the table's clock (a test's
  manual one included) decides whether a seat is due, never this loop.
- **Other servers**: what they change reaches this one at once by announcement
  (:mod:`~spieltisch.web.cluster.fanout`); beneath that, every few seconds, the tables with pages
  open or bots playing are compared with the database, and one that another server moved on
  (a move, a seat changing hands, an end) is taken up again and its pages told. This
  server's connections per seat are written for the others to read (within a
  :data:`FLUSH` when they change, and every few seconds as a heartbeat).
- **Memory**: a table nobody has open and nothing moves (finished, expired, never started, or
  one whose clock can do nothing) leaves memory after a while and is loaded again when a page
  asks; tables that never started expire after a day and are deleted a week later.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol

from spieltisch.web.cluster.leases import Leases
from spieltisch.web.common.settings import Settings
from spieltisch.web.store import table_store
from spieltisch.web.tables.ending import settle_owed
from spieltisch.web.tables.lobby import Lobby
from spieltisch.web.tables.presence import Presence, read_presence, write_presence
from spieltisch.web.tables.services import Services
from spieltisch.web.tables.table import LiveTable
from spieltisch.web.tables.takeover import Takeovers

TICK = 0.5
"""Seconds between two looks at the clocks of this server's tables."""
FLUSH = 0.25
"""Seconds between two writes of the connections that changed here."""
SYNC = 5.0
"""Seconds between two looks at the database for what other servers changed (beneath the
announcements, which bring it at once)."""
HEARTBEAT = 5.0
"""Seconds between two writes of this server's connections per seat."""
SWEEP = 60.0
"""Seconds between two sweeps of idle tables out of memory."""
IDLE = 120.0
"""Seconds a table with no page open and nothing moving stays in memory."""
KEEP_EXPIRED = 7 * 86400.0
"""Seconds an expired table is kept before it is deleted."""


class UpkeepHub(Services, Protocol):
    """What the upkeep needs of the hub."""

    settings: Settings
    server: str
    tables: dict[str, LiveTable]
    presence: Presence
    takeovers: Takeovers
    lobby: Lobby
    leases: Leases


class Upkeep:
    """The background loops of one server (see the module docstring)."""

    def __init__(self, hub: UpkeepHub) -> None:
        self.hub = hub
        self._beat = 0.0

    async def ticking(self) -> None:
        """Look at every playing table's clock now and then."""
        while True:
            await asyncio.sleep(TICK)
            for live in list(self.hub.tables.values()):
                if live.status == "playing" and self.hub.leases.holds(live.id):
                    with contextlib.suppress(Exception):
                        await self.hub.takeovers.check(live)

    async def syncing(self) -> None:
        """Tell the other servers who is connected here; take up what they changed."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(FLUSH)
            with contextlib.suppress(Exception):
                if time.monotonic() - last >= SYNC:
                    last = time.monotonic()
                    await self.sync_once()
                elif self.hub.presence.dirty:
                    await self.flush()

    async def flush(self) -> None:
        """Write the connections per seat of the tables whose connections changed here."""
        hub = self.hub
        dirty, hub.presence.dirty = hub.presence.dirty, set()
        counts = {i: hub.presence.counts(hub.tables[i]) for i in dirty if i in hub.tables}
        await hub.write(write_presence, hub.engine, hub.server, counts, hub.clock.now())

    async def sync_once(self) -> None:
        """One look at the database."""
        hub = self.hub
        watched = [t for t in hub.tables.values() if t.connections or t.status == "playing"]
        stored = await hub.read(table_store.versions_of, hub.reader, [t.id for t in watched])
        for live in watched:
            if live.id in stored and live.behind(stored[live.id]):
                async with live.lock:
                    await hub.reload(live)
                await hub.broadcast(live)
                hub.schedule(live)
        now = time.monotonic()
        beat = now - self._beat >= HEARTBEAT
        dirty = {t.id for t in watched} if beat else hub.presence.dirty
        counts = {i: hub.presence.counts(hub.tables[i]) for i in dirty if i in hub.tables}
        hub.presence.dirty = set()
        await hub.write(write_presence, hub.engine, hub.server, counts, hub.clock.now())
        remote = await hub.read(read_presence, hub.reader, [t.id for t in watched], hub.server)
        for live in watched:
            hub.presence.remote[live.id] = remote.get(live.id, {})
            if hub.presence.update(live):
                await hub.broadcast(live)
        if beat:
            self._beat = now

    async def sweeping(self) -> None:
        """Sweep now and then (:meth:`sweep`)."""
        while True:
            await self.sweep()
            await asyncio.sleep(SWEEP)

    async def sweep(self) -> None:
        """Forget idle tables, expire old open ones, delete long-expired ones, and settle the
        rated games whose settling failed (a database that refused it for a while): each on
        its own, so that one failing does not stop the others."""
        with contextlib.suppress(Exception):
            self.forget_idle()
            await self.expire()
            cutoff = time.time() - self.hub.settings.expire_after - KEEP_EXPIRED
            await self.hub.write(table_store.delete_expired, self.hub.engine, cutoff)
        with contextlib.suppress(Exception):
            await settle_owed(self.hub)

    def forget_idle(self, idle: float = IDLE) -> list[str]:
        """Drop from memory the tables nobody needs there now; their ids."""
        now = time.monotonic()
        gone = []
        for live in list(self.hub.tables.values()):
            if live.connections or now - live.touched < idle:
                continue
            if self.hub.leases.holds(live.id) and not quiet(live):
                continue  # its bot or its clock moves it here
            del self.hub.tables[live.id]
            self.hub.presence.forget(live.id)
            gone.append(live.id)
        return gone

    async def expire(self) -> int:
        """Mark tables that never started, and are older than the limit, expired."""
        hub = self.hub
        cutoff = time.time() - hub.settings.expire_after
        count: int = await hub.write(table_store.expire, hub.engine, cutoff)
        for live in hub.tables.values():
            if live.status == "open":
                row = await hub.read(table_store.load_table, hub.reader, live.id)
                if row is not None:
                    live.status = row.status
        if count:
            hub.lobby.changed()
        return count


def quiet(live: LiveTable) -> bool:
    """Whether nothing will happen at ``live`` unless a page comes: no bot thinks, and it is
    over, never started, or its clock can hand no seat to a bot."""
    if live.bot_task is not None and not live.bot_task.done():
        return False
    if live.status != "playing":
        return True
    to_act = live.table.to_act()
    if to_act is not None and live.seats[to_act].playing_level is not None:
        return False  # a bot is about to move
    return live.rules.clock.value == "none" and not live.rules.counts_away
