"""Reading and writing tables in the database: plain functions over a connection.

Every function here is synchronous and is run off the event loop: writes by the server's one
writer thread, reads by any worker thread. A move is appended with a compare-and-set on the
table's version in the same transaction as the move itself, so two server processes sharing
one database can never both apply a move to one table: the second finds the version moved on
(or the move's place taken) and gets :class:`VersionConflictError`.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from spieltisch.core.game import OptionValue
from spieltisch.core.record import option_values
from spieltisch.web.store.db import (
    ANALYSES,
    MOVES,
    NOTES,
    PRESENCE,
    REVOKED,
    SEATS,
    SECRETS,
    TABLES,
    VOTES,
)


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
    stand_in: str | None = None
    """The level of a bot playing for the absent person (their token still holds the seat)."""
    bank: float | None = None
    """Seconds left in the person's time bank (a live clock)."""
    token_origin: str | None = None
    """What the seat's token is derived from with the host's token (``None``: not derived,
    so the host page cannot show its link again)."""
    conceded_at: int | None = None
    """The version at which the seat conceded."""
    account_id: str | None = None
    """The account of the signed-in person who holds this seat (see
    :mod:`spieltisch.web.routes.bound`)."""

    @property
    def person(self) -> bool:
        """A person's seat (whether or not a bot stands in for them now)."""
        return self.kind == "person"

    @property
    def playing_level(self) -> str | None:
        """The bot level that moves for this seat now: a bot's, a stand-in's, or none."""
        return self.level if self.kind == "bot" else self.stand_in


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
    rules: str = "{}"
    epoch: int = 0
    rematch: str | None = None
    turn_since: float | None = None


def _seat_values(seat: SeatRow) -> dict[str, object]:
    return {
        "seat": seat.seat,
        "kind": seat.kind,
        "name": seat.name,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "joined": seat.joined,
        "salt": seat.salt,
        "stand_in": seat.stand_in,
        "bank": seat.bank,
        "token_origin": seat.token_origin,
        "conceded_at": seat.conceded_at,
        "account_id": seat.account_id,
    }


def _seat_row(s: Any) -> SeatRow:
    return SeatRow(
        s["seat"], s["kind"], s["name"], s["level"], s["token_hash"], s["joined"], s["salt"],
        s["stand_in"], s["bank"], s["token_origin"], s["conceded_at"], s["account_id"],
    )  # fmt: skip


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
    rules: str = "{}",
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
                rules=rules,
                epoch=0,
            )
        )
        db.execute(SEATS.insert(), [{"table_id": table_id, **_seat_values(s)} for s in seats])


@dataclass(frozen=True, slots=True)
class TableSide:
    """What of a stored table may change beside its moves, and its place: enough to tell
    whether a copy in memory is behind without reading the moves."""

    status: str
    version: int
    epoch: int
    seats: tuple[SeatRow, ...]
    turn_since: float | None
    rematch: str | None
    hints: bool


def side_of(engine: Engine, table_id: str) -> TableSide | None:
    """The stored table's :class:`TableSide`, or ``None`` if there is none."""
    columns = (TABLES.c.status, TABLES.c.version, TABLES.c.epoch, TABLES.c.turn_since,
               TABLES.c.rematch, TABLES.c.hints)  # fmt: skip
    with engine.connect() as db:
        row = db.execute(sa.select(*columns).where(TABLES.c.id == table_id)).first()
        if row is None:
            return None
        seats = db.execute(
            sa.select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat)
        ).mappings()
        kept = tuple(_seat_row(s) for s in seats)
    status, version, epoch, since, rematch, hints = row
    return TableSide(str(status), int(version), int(epoch), kept, since, rematch, bool(hints))


def moves_between(engine: Engine, table_id: str, start: int, end: int) -> list[tuple[str, bool]]:
    """The table's moves from index ``start`` up to ``end``: each its text and whether its
    chance outcome was dictated."""
    with engine.connect() as db:
        rows = db.execute(
            sa.select(MOVES.c.text, MOVES.c.dictated)
            .where(MOVES.c.table_id == table_id, MOVES.c.idx >= start, MOVES.c.idx < end)
            .order_by(MOVES.c.idx)
        ).all()
    return [(str(text), bool(dictated)) for text, dictated in rows]


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
        seats=tuple(_seat_row(s) for s in seats),
        moves=tuple(text for text, _ in moves),
        dictated=tuple(i for i, (_, dictated) in enumerate(moves) if dictated),
        record=row["record"],
        rematch_of=row["rematch_of"],
        secret=row["secret"],
        commitment=row["commitment"],
        hints=bool(row["hints"]),
        rules=row["rules"],
        epoch=row["epoch"],
        rematch=row["rematch"],
        turn_since=row["turn_since"],
    )


def append_moves(
    engine: Engine,
    table_id: str,
    expected: int,
    moves: Sequence[tuple[str, bool]],
    final_record: str | None = None,
    epoch: int | None = None,
    turn_since: float | None = None,
) -> None:
    """Append ``moves`` (text, dictated) to the table at version ``expected``, atomically, and
    with ``final_record`` mark it finished in the same transaction (so no crash can leave a
    game over but still being played); :class:`VersionConflictError` if its version is
    another by now, or (given ``epoch``) if a seat changed hands since the caller read it.
    ``turn_since``: when the next turn began (its clock runs from then)."""
    if not moves and final_record is None:
        set_turn_since(engine, table_id, turn_since)  # a start with no chance step to draw
        return
    values: dict[str, object] = {"version": expected + len(moves), "turn_since": turn_since}
    if final_record is not None:
        values.update(status="finished", record=final_record, finished_at=time.time())
    try:
        with engine.begin() as db:
            where = [TABLES.c.id == table_id, TABLES.c.version == expected]
            if epoch is not None:
                where.append(TABLES.c.epoch == epoch)
            moved = db.execute(TABLES.update().where(*where).values(**values))
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


def end_abandoned(engine: Engine, table_id: str, version: int, epoch: int) -> bool:
    """Mark a game walked away from ``abandoned``, if it is still being played at ``version``
    with its seats at ``epoch`` (else another server moved it on: False, nothing changed)."""
    with engine.begin() as db:
        done = db.execute(
            TABLES.update()
            .where(TABLES.c.id == table_id, TABLES.c.status == "playing")
            .where(TABLES.c.version == version, TABLES.c.epoch == epoch)
            .values(status="abandoned", finished_at=time.time())
        )
    return bool(done.rowcount)


def update_seat(engine: Engine, table_id: str, seat: SeatRow, new_holder: bool = False) -> int:
    """Store a seat's new state (a name, a bot, a new token, a stand-in); with
    ``new_holder`` (the seat changed hands) the table's epoch moves on, so that a move
    checked against the old holder can no longer be committed. The epoch now."""
    values = _seat_values(seat)
    del values["seat"]
    with engine.begin() as db:
        db.execute(
            SEATS.update()
            .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat.seat)
            .values(**values)
        )
        if new_holder:
            db.execute(
                TABLES.update().where(TABLES.c.id == table_id).values(epoch=TABLES.c.epoch + 1)
            )
        epoch: int = db.execute(
            sa.select(TABLES.c.epoch).where(TABLES.c.id == table_id)
        ).scalar_one()
    return epoch


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


def version_of(engine: Engine, table_id: str) -> tuple[str, int, int] | None:
    """The stored status, version and epoch of a table (a cheap check that a copy is
    current)."""
    found = versions_of(engine, [table_id])
    return found.get(table_id)


def versions_of(engine: Engine, table_ids: Sequence[str]) -> dict[str, tuple[str, int, int]]:
    """The stored status, version and epoch of each of ``table_ids`` that exists."""
    if not table_ids:
        return {}
    with engine.connect() as db:
        rows = db.execute(
            sa.select(TABLES.c.id, TABLES.c.status, TABLES.c.version, TABLES.c.epoch).where(
                TABLES.c.id.in_(list(table_ids))
            )
        ).all()
    return {str(r[0]): (str(r[1]), int(r[2]), int(r[3])) for r in rows}


def set_turn_since(engine: Engine, table_id: str, since: float | None) -> None:
    """When the turn of the seat to move began (the clock counts from there)."""
    with engine.begin() as db:
        db.execute(TABLES.update().where(TABLES.c.id == table_id).values(turn_since=since))


def set_rematch(engine: Engine, table_id: str, rematch: str) -> str:
    """Link a finished table to its rematch, unless it has one already; the rematch's id."""
    with engine.begin() as db:
        db.execute(
            TABLES.update()
            .where(TABLES.c.id == table_id, TABLES.c.rematch.is_(None))
            .values(rematch=rematch)
        )
        found: str = db.execute(
            sa.select(TABLES.c.rematch).where(TABLES.c.id == table_id)
        ).scalar_one()
    return found


def concede(
    engine: Engine, table_id: str, seat: SeatRow, version: int, final_record: str | None
) -> None:
    """Store a seat's concession (at ``version``, which the table must still be at) with its
    new holder, and with ``final_record`` the end of the game, in one transaction;
    :class:`VersionConflictError` if the table moved on meanwhile."""
    values = _seat_values(seat)
    del values["seat"]
    table_values: dict[str, object] = {"epoch": TABLES.c.epoch + 1}
    if final_record is not None:
        table_values.update(status="finished", record=final_record, finished_at=time.time())
    with engine.begin() as db:
        moved = db.execute(
            TABLES.update()
            .where(TABLES.c.id == table_id, TABLES.c.version == version)
            .values(**table_values)
        )
        if moved.rowcount != 1:
            raise VersionConflictError(table_id)
        db.execute(
            SEATS.update()
            .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat.seat)
            .values(**values)
        )


def delete_expired(engine: Engine, older_than: float) -> int:
    """Delete the tables that expired (never started) and were made before ``older_than``,
    with everything kept of them; how many."""
    with engine.begin() as db:
        ids = list(
            db.execute(
                sa.select(TABLES.c.id).where(
                    TABLES.c.status == "expired", TABLES.c.created_at < older_than
                )
            ).scalars()
        )
        if not ids:
            return 0
        for kept in (SEATS, MOVES, ANALYSES, NOTES, PRESENCE, REVOKED, VOTES):
            db.execute(kept.delete().where(kept.c.table_id.in_(ids)))
        db.execute(TABLES.delete().where(TABLES.c.id.in_(ids)))
    return len(ids)


def shared_hex(engine: Engine, name: str, size: int) -> str:
    """The secret ``name`` every server process on this database uses (``size`` random bytes,
    in hexadecimal), made now if none is kept yet (the first process to ask wins a race; the
    others read its secret)."""
    with engine.begin() as db:
        kept = db.execute(sa.select(SECRETS.c.value).where(SECRETS.c.name == name)).scalar()
        if kept is None:
            kept = secrets.token_hex(size)
            try:
                with db.begin_nested():
                    db.execute(SECRETS.insert().values(name=name, value=kept))
            except IntegrityError:
                kept = db.execute(
                    sa.select(SECRETS.c.value).where(SECRETS.c.name == name)
                ).scalar_one()
    return str(kept)


def shared_secret(engine: Engine, name: str) -> int:
    """The secret ``name`` every server process on this database uses, as 62 bits (a seed's
    salt: :func:`shared_hex`)."""
    return int(shared_hex(engine, name, 8), 16) & ((1 << 62) - 1)
