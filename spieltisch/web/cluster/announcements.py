"""What changed at which table, said through the database to every server process sharing it.

Triggers (migration 0008) announce each committed change to a table, its seats, its revoked
links, its votes and its notes; presence, rewritten by every heartbeat, is announced here by
its writer only when a seat's connections changed. An announcement is the table's id and a
kind (:data:`KINDS`): on PostgreSQL a ``NOTIFY`` on :data:`CHANNEL` with the payload
``"<table id> <kind>"``, delivered to every listening process when the transaction commits
(never for one rolled back; identical ones of one transaction once); on SQLite a row of
``announcements`` written in the same transaction, which the processes sharing the file read
in order of its id (SQLite commits one writer at a time, so ids become visible in order).
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from spieltisch.web.store.db import ANNOUNCEMENTS

CHANNEL = "spieltisch"
"""PostgreSQL's channel for every table (the payload names the table)."""
KINDS = frozenset({"table", "seats", "votes", "notes", "presence", "sessions"})
"""What an announcement may say changed: the table's row (a move, its status, its clock, a
rematch), its seats (a join, a name, a stand-in, a revoked link, a clock's bank), its votes,
its notes, who is connected, or that a session which may hold a seat there ended (signing
out: announced by whoever ends it, in its transaction)."""
KEEP = 10_000
"""Announcements an SQLite file keeps (far more than any process reads between two looks)."""
BATCH = 1_000
"""Announcements one look reads at most."""
MAX_PAYLOAD = 64
"""Characters of a payload worth reading (a table id is at most 32)."""


def announce(db: Connection, table_ids: Iterable[str], kind: str) -> None:
    """Announce, within the transaction of ``db``, that ``kind`` changed at ``table_ids``."""
    ids = sorted(set(table_ids))
    if not ids:
        return
    if db.dialect.name == "postgresql":
        for table_id in ids:
            db.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{table_id} {kind}")))
        return
    db.execute(ANNOUNCEMENTS.insert(), [{"table_id": t, "kind": kind} for t in ids])


def parse(payload: str) -> tuple[str, str] | None:
    """A payload's table id and kind, or ``None`` if it is not an announcement."""
    if len(payload) > MAX_PAYLOAD:
        return None
    table_id, _, kind = payload.partition(" ")
    if not table_id or kind not in KINDS:
        return None
    return table_id, kind


def latest(engine: Engine) -> int:
    """The id of the newest announcement in an SQLite file (0 if none)."""
    with engine.connect() as db:
        found = db.execute(sa.select(sa.func.max(ANNOUNCEMENTS.c.id))).scalar()
    return 0 if found is None else int(found)


def read_after(engine: Engine, after: int, limit: int = BATCH) -> list[tuple[int, str, str]]:
    """The announcements after id ``after``, oldest first: id, table id, kind."""
    with engine.connect() as db:
        rows = db.execute(
            sa.select(ANNOUNCEMENTS.c.id, ANNOUNCEMENTS.c.table_id, ANNOUNCEMENTS.c.kind)
            .where(ANNOUNCEMENTS.c.id > after)
            .order_by(ANNOUNCEMENTS.c.id)
            .limit(limit)
        ).all()
    return [(int(i), str(t), str(k)) for i, t, k in rows]


def prune(engine: Engine, keep: int = KEEP) -> None:
    """Delete all but the newest ``keep`` announcements (never all: ids must keep rising)."""
    with engine.begin() as db:
        newest = db.execute(sa.select(sa.func.max(ANNOUNCEMENTS.c.id))).scalar()
        if newest is not None:
            db.execute(ANNOUNCEMENTS.delete().where(ANNOUNCEMENTS.c.id <= int(newest) - keep))


def listen_address(url: str) -> str:
    """The libpq address of an SQLAlchemy PostgreSQL URL (psycopg listens on its own)."""
    made = sa.engine.make_url(url).set(drivername="postgresql")
    return made.render_as_string(hide_password=False)
