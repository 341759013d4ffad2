"""What every server process sharing the database must count together: allowances as token
buckets kept in rows (taken atomically, so N processes give an address its allowance once),
who made each table (the bot pool's fairness key), and the key that signs a device's cookie.

A bucket's row holds the tokens left as of a wall-clock second; a take reads it under the
row's lock (PostgreSQL's ``SELECT ... FOR UPDATE``; SQLite's writer holds the file's write
lock from ``BEGIN IMMEDIATE``), refills it for the time since, takes one token if there is
one, and writes it back in the same transaction. A row whose bucket is full again says no
more than a missing row does, and goes now and then.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from spieltisch.web.store.db import ALLOWANCES, TABLE_OWNERS, TABLES
from spieltisch.web.store.table_store import shared_hex

SWEEP_EVERY = 200
"""Takes between two sweeps of the rows whose buckets are full again (per process)."""
MAX_KEY = 200
"""The longest key a bucket may have (the column's width)."""
MAX_OWNER = 100
"""The longest owner a table may have (the column's width)."""
REMATCH_HOPS = 32
"""How far a rematch's chain is followed back to the table that has an owner."""

_takes = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Bucket:
    """One allowance of one key: ``burst`` at once, then ``rate`` a second."""

    key: str
    rate: float
    burst: float


def _insert(engine: Engine | Connection) -> type[sqlite.Insert] | type[postgresql.Insert]:
    return postgresql.Insert if engine.dialect.name == "postgresql" else sqlite.Insert


def take(engine: Engine, buckets: Sequence[Bucket], now: float) -> float:
    """Take one token of each of ``buckets`` (every one is counted, whether or not the others
    had a token), all in one transaction; 0 if each had one, else the seconds until the one
    waited for longest has one again. ``now``: wall-clock seconds (every process agrees)."""
    longest = 0.0
    with engine.begin() as db:
        insert = _insert(db)
        for bucket in buckets:
            key = bucket.key[:MAX_KEY]
            db.execute(
                insert(ALLOWANCES)
                .values(key=key, tokens=bucket.burst, stamp=now, full_at=now)
                .on_conflict_do_nothing(index_elements=["key"])
            )
            row = db.execute(
                sa.select(ALLOWANCES.c.tokens, ALLOWANCES.c.stamp)
                .where(ALLOWANCES.c.key == key)
                .with_for_update()
            ).one()
            # another process's clock may run a little ahead: never refill for negative time
            since = max(0.0, now - row.stamp)
            tokens = min(bucket.burst, row.tokens + since * bucket.rate)
            if tokens >= 1:
                tokens -= 1
            else:
                longest = max(longest, (1.0 - tokens) / bucket.rate)
            stamp = max(now, row.stamp)
            db.execute(
                ALLOWANCES.update()
                .where(ALLOWANCES.c.key == key)
                .values(
                    tokens=tokens,
                    stamp=stamp,
                    full_at=stamp + (bucket.burst - tokens) / bucket.rate,
                )
            )
        if next(_takes) % SWEEP_EVERY == 0:
            db.execute(ALLOWANCES.delete().where(ALLOWANCES.c.full_at < now))
    return longest


def shared_key(engine: Engine, name: str) -> bytes:
    """The 32-byte key ``name`` every server process on this database uses (a MAC's), made
    now if none is kept yet (:func:`~spieltisch.web.store.table_store.shared_hex`)."""
    return bytes.fromhex(shared_hex(engine, name, 32))


def set_owner(engine: Engine, table_id: str, owner: str) -> None:
    """Say who made ``table_id`` (kept with the table, gone with it)."""
    with engine.begin() as db:
        db.execute(
            _insert(db)(TABLE_OWNERS)
            .values(table_id=table_id, owner=owner[:MAX_OWNER])
            .on_conflict_do_nothing(index_elements=["table_id"])
        )


def owner_of(engine: Engine, table_id: str) -> str | None:
    """Who made ``table_id`` (a rematch: whoever made the first table of its chain); ``None``
    if nobody is known (a table made before owners were kept, or by a route that keeps none)."""
    with engine.connect() as db:
        current: str | None = table_id
        for _ in range(REMATCH_HOPS):
            if current is None:
                return None
            found = db.execute(
                sa.select(TABLE_OWNERS.c.owner, TABLES.c.rematch_of)
                .select_from(TABLES.outerjoin(TABLE_OWNERS, TABLE_OWNERS.c.table_id == TABLES.c.id))
                .where(TABLES.c.id == current)
            ).first()
            if found is None:
                return None
            if found.owner is not None:
                return str(found.owner)
            current = found.rematch_of
    return None
