"""What other server processes changed, taken up by the copy of a table in memory here.

The fan-out (:mod:`~spieltisch.web.cluster.fanout`) hears which table changed and what kind of
change was announced; this brings the copy in memory to what the database holds:

- **the table, its seats, its votes** (a move, an end, a seat changing hands, a revoked link,
  a stand-in, a clock's bank, a vote, a rematch): the stored row and seats are compared under
  the table's lock with the copy; if the copy is behind, the table is taken up again (pages
  whose link stopped working are told why and closed), its pages are sent what is new, and
  its bot is started if this process moves it (:mod:`~spieltisch.web.cluster.leases`). A
  process's own changes compare equal and cost one small read;
- **notes**: the notes after the last one this process showed are sent to the pages that may
  read them;
- **presence**: the other processes' connections per seat are read again, and the pages are
  told if someone came or went;
- **sessions** (and seats): pages that hold a seat by a signed-in session that has ended are
  told so and closed. Ending sessions (signing out, here or everywhere, a new password,
  deleting the account) announces ``sessions`` at every table still open or being played
  where the account holds a seat, within the ending's own transaction
  (:func:`announce_ended`, which the hub's account events run there); a deleted account's
  seats' links end in that transaction too (:func:`~spieltisch.web.tables.seats.end_links`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from spieltisch.core.errors import SpieltischError
from spieltisch.web.cluster.announcements import announce
from spieltisch.web.people.events import AccountEvents
from spieltisch.web.store import table_store
from spieltisch.web.store.db import SEATS, TABLES
from spieltisch.web.tables import chat
from spieltisch.web.tables.presence import Presence, read_presence
from spieltisch.web.tables.seats import close_ended_sessions, end_links
from spieltisch.web.tables.table import LiveTable
from spieltisch.web.tables.takeover import load_votes

STATE = frozenset({"table", "seats", "votes"})
"""Kinds that may change the table, its seats or its votes."""
SESSIONS = frozenset({"sessions", "seats"})
"""Kinds after which a page's session may have ended (a deleted account renames its seats)."""


def announce_ended(db: Connection, account_id: str, deleted: bool) -> None:
    """Within the transaction that ends sessions of ``account_id`` (or the account): announce
    it at every table still open or being played where the account holds a seat (the only
    tables where a page may hold a seat by its session), so that every process closes such
    pages once it is committed; a deleted account's seats' links end here too."""
    tables = db.execute(
        sa.select(SEATS.c.table_id)
        .join(TABLES, TABLES.c.id == SEATS.c.table_id)
        .where(SEATS.c.account_id == account_id, TABLES.c.status.in_(("open", "playing")))
        .distinct()
    ).scalars()
    ids = set(tables)
    if deleted:
        ids.update(end_links(db, account_id, time.time()))
    announce(db, ids, "sessions")


class RemoteHub(Protocol):
    """What taking up another process's changes needs of the hub."""

    server: str
    reader: Engine
    tables: dict[str, LiveTable]
    presence: Presence
    events: AccountEvents

    async def read(self, function: Callable[..., Any], *args: Any) -> Any: ...

    async def reload(self, live: LiveTable) -> None: ...

    async def broadcast(self, live: LiveTable) -> None: ...

    def schedule(self, live: LiveTable) -> None: ...


def matches(side: table_store.TableSide, live: LiveTable) -> bool:
    """Whether ``live`` holds the table as ``side`` found it stored (or further on: read
    before the copy's own latest commit)."""
    if live.behind((side.status, side.version, side.epoch)):
        return False
    if side.version != live.committed or side.epoch != live.epoch:
        return True
    stored = (side.seats, side.turn_since, side.rematch, side.hints)
    return stored == (tuple(live.seats), live.turn_since, live.rematch, live.hints)


class Remote:
    """One process's way of taking up what the others announced."""

    def __init__(self, hub: RemoteHub) -> None:
        self.hub = hub
        hub.events.within(announce_ended)

    def in_memory(self) -> Collection[str]:
        """The tables this process holds (the only ones whose announcements matter here)."""
        return self.hub.tables.keys()

    async def take_up(self, table_id: str, kinds: set[str]) -> None:
        """Bring the copy of ``table_id`` in memory to what was announced of it."""
        live = self.hub.tables.get(table_id)
        if live is None:
            return
        if kinds & SESSIONS:  # first: a page signed out hears nothing more of the table
            await close_ended_sessions(self.hub, live)
        if kinds & STATE:
            await self._state(live, "votes" in kinds)
        if "notes" in kinds:
            await self._notes(live)
        if "presence" in kinds:
            await self._presence(live)

    async def _state(self, live: LiveTable, votes: bool) -> None:
        hub = self.hub
        async with live.lock:
            side = await hub.read(table_store.side_of, hub.reader, live.id)
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

    async def _extend(self, live: LiveTable, side: table_store.TableSide) -> bool:
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
            table_store.moves_between, self.hub.reader, live.id, live.committed, side.version
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
