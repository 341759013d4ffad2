"""Reading and writing tables in the database: plain functions over a connection.

Every function here is synchronous and is run off the event loop: writes by the server's one
writer thread, reads by any worker thread. A move is appended with a compare-and-set on the
table's version in the same transaction as the move itself, so two server processes sharing
one database can never both apply a move to one table: the second finds the version moved on
(or the move's place taken) and gets :class:`VersionConflictError`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spieltisch.core.game import OptionValue
from spieltisch.core.record import option_values
from spieltisch.web.db import ANALYSES, MOVES, SEATS, TABLES


class VersionConflictError(Exception):
    """Another writer applied a move to the table first."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat as stored."""

    seat: int
    kind: str
    """``person`` or ``bot``."""
    name: str
    level: str | None
    token_hash: str | None
    joined: bool
    salt: str | None = None
    """The person's contribution to the table's seed (see :mod:`spieltisch.core.fair`)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table as stored, with its seats and moves."""

    id: str
    game: str
    players: int
    options: dict[str, OptionValue]
    seed: int
    status: str
    version: int
    host_hash: str
    created_at: float
    seats: tuple[SeatRow, ...]
    moves: tuple[str, ...]
    dictated: tuple[int, ...]
    record: str | None
    rematch_of: str | None
    secret: str | None = None
    commitment: str | None = None
    hints: bool = False


def create_table(
    engine: Engine,
    table_id: str,
    game: str,
    players: int,
    options: dict[str, OptionValue],
    seed: int,
    host_hash: str,
    seats: Sequence[SeatRow],
    rematch_of: str | None = None,
    secret: str | None = None,
    commitment: str | None = None,
    hints: bool = False,
) -> None:
    """Store a new, open table and its seats (with the secret behind its dice, if fair)."""
    with engine.begin() as db:
        db.execute(
            TABLES.insert().values(
                id=table_id,
                game=game,
                players=players,
                options=json.dumps(options, sort_keys=True),
                seed=seed,
                status="open",
                version=0,
                host_hash=host_hash,
                created_at=time.time(),
                rematch_of=rematch_of,
                secret=secret,
                commitment=commitment,
                hints=hints,
            )
        )
        db.execute(
            SEATS.insert(),
            [
                {
                    "table_id": table_id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "level": s.level,
                    "token_hash": s.token_hash,
                    "joined": s.joined,
                    "salt": s.salt,
                }
                for s in seats
            ],
        )


def load_table(engine: Engine, table_id: str) -> TableRow | None:
    """The table ``table_id`` with its seats and moves, or ``None``."""
    with engine.connect() as db:
        row = db.execute(sa.select(TABLES).where(TABLES.c.id == table_id)).mappings().first()
        if row is None:
            return None
        seats = (
            db.execute(sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat))
            .mappings()
            .all()
        )
        moves = db.execute(
            sa.select(MOVES.c.text, MOVES.c.dictated)
            .where(MOVES.c.table_id == table_id)
            .order_by(MOVES.c.idx)
        ).all()
    return TableRow(
        id=row["id"],
        game=row["game"],
        players=row["players"],
        options=option_values(json.loads(row["options"])),
        seed=int(row["seed"]),
        status=row["status"],
        version=row["version"],
        host_hash=row["host_hash"],
        created_at=row["created_at"],
        seats=tuple(
            SeatRow(
                s["seat"], s["kind"], s["name"], s["level"], s["token_hash"], s["joined"], s["salt"]
            )
            for s in seats
        ),
        moves=tuple(text for text, _ in moves),
        dictated=tuple(i for i, (_, dictated) in enumerate(moves) if dictated),
        record=row["record"],
        rematch_of=row["rematch_of"],
        secret=row["secret"],
        commitment=row["commitment"],
        hints=bool(row["hints"]),
    )


def append_moves(
    engine: Engine,
    table_id: str,
    expected: int,
    moves: Sequence[tuple[str, bool]],
    final_record: str | None = None,
) -> None:
    """Append ``moves`` (text, dictated) to the table at version ``expected``, atomically, and
    with ``final_record`` mark it finished in the same transaction (so no crash can leave a
    game over but still being played); :class:`VersionConflictError` if its version is
    another by now."""
    if not moves and final_record is None:
        return
    values: dict[str, object] = {"version": expected + len(moves)}
    if final_record is not None:
        values.update(status="finished", record=final_record, finished_at=time.time())
    try:
        with engine.begin() as db:
            moved = db.execute(
                TABLES.update()
                .where(TABLES.c.id == table_id, TABLES.c.version == expected)
                .values(**values)
            )
            if moved.rowcount != 1:
                raise VersionConflictError(table_id)
            if not moves:
                return
            db.execute(
                MOVES.insert(),
                [
                    {"table_id": table_id, "idx": expected + i, "text": text, "dictated": d}
                    for i, (text, d) in enumerate(moves)
                ],
            )
    except IntegrityError:
        raise VersionConflictError(table_id) from None


def set_status(engine: Engine, table_id: str, status: str, record: str | None = None) -> None:
    """Mark the table ``playing``, ``finished`` (with its record) or ``expired``."""
    values: dict[str, object] = {"status": status}
    if status == "finished":
        values.update(record=record, finished_at=time.time())
    with engine.begin() as db:
        db.execute(TABLES.update().where(TABLES.c.id == table_id).values(**values))


def update_seat(engine: Engine, table_id: str, seat: SeatRow) -> None:
    """Store a seat's new holder (a name, a bot, a new token)."""
    with engine.begin() as db:
        db.execute(
            SEATS.update()
            .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat.seat)
            .values(
                kind=seat.kind,
                name=seat.name,
                level=seat.level,
                token_hash=seat.token_hash,
                joined=seat.joined,
                salt=seat.salt,
            )
        )


def set_seed(engine: Engine, table_id: str, seed: int) -> None:
    """Fix the seed of a table that is about to start (drawn from its secret and salts)."""
    with engine.begin() as db:
        db.execute(
            TABLES.update().where(TABLES.c.id == table_id, TABLES.c.version == 0).values(seed=seed)
        )


@dataclass(frozen=True, slots=True)
class Listed:
    """A table as the lobby lists it."""

    id: str
    game: str
    players: int
    options: dict[str, OptionValue]
    status: str
    seats_free: int
    names: tuple[str, ...]
    created_at: float


def list_tables(engine: Engine, status: str, limit: int) -> list[Listed]:
    """The newest tables with ``status``."""
    with engine.connect() as db:
        rows = db.execute(
            sa.select(TABLES)
            .where(TABLES.c.status == status)
            .order_by(TABLES.c.created_at.desc())
            .limit(limit)
        ).mappings()
        listed = []
        for row in rows:
            seats = db.execute(
                sa.select(SEATS).where(SEATS.c.table_id == row["id"]).order_by(SEATS.c.seat)
            ).mappings()
            seat_list = list(seats)
            free = sum(1 for s in seat_list if s["kind"] == "person" and not s["joined"])
            listed.append(
                Listed(
                    row["id"],
                    row["game"],
                    row["players"],
                    option_values(json.loads(row["options"])),
                    row["status"],
                    free,
                    tuple(s["name"] for s in seat_list),
                    row["created_at"],
                )
            )
    return listed


def unfinished(engine: Engine) -> list[str]:
    """The ids of every table being played (to take up again after a restart)."""
    with engine.connect() as db:
        return list(
            db.execute(sa.select(TABLES.c.id).where(TABLES.c.status == "playing")).scalars()
        )


def expire(engine: Engine, older_than: float) -> int:
    """Mark open tables created before ``older_than`` expired; how many were."""
    with engine.begin() as db:
        done = db.execute(
            TABLES.update()
            .where(TABLES.c.status == "open", TABLES.c.created_at < older_than)
            .values(status="expired")
        )
        return done.rowcount


def save_analysis(engine: Engine, table_id: str, seat: int, result: str) -> None:
    """Keep a finished analysis of one seat's decisions."""
    with engine.begin() as db:
        db.execute(
            ANALYSES.delete().where(ANALYSES.c.table_id == table_id, ANALYSES.c.seat == seat)
        )
        db.execute(
            ANALYSES.insert().values(
                table_id=table_id, seat=seat, result=result, created_at=time.time()
            )
        )


def load_analysis(engine: Engine, table_id: str, seat: int) -> str | None:
    """A kept analysis, as JSON text, or ``None``."""
    with engine.connect() as db:
        found: str | None = db.execute(
            sa.select(ANALYSES.c.result).where(
                ANALYSES.c.table_id == table_id, ANALYSES.c.seat == seat
            )
        ).scalar()
    return found


def version_of(engine: Engine, table_id: str) -> tuple[str, int] | None:
    """The stored status and version of a table (a cheap check that a copy is current)."""
    with engine.connect() as db:
        row = db.execute(
            sa.select(TABLES.c.status, TABLES.c.version).where(TABLES.c.id == table_id)
        ).first()
    return None if row is None else (str(row[0]), int(row[1]))
