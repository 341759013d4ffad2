"""The pieces that let server processes share a database: announcements, leases, workers.

Against a migrated SQLite file, and the same against PostgreSQL where
``SPIELTISCH_TEST_POSTGRES`` names one (the triggers differ by database). The processes
themselves are tested in :mod:`tests.web.test_many_servers`.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

import spieltisch
from spieltisch.core.record import Record
from spieltisch.session import Table
from spieltisch.web.cluster import announcements, leases
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.serve import WorkersError, check_workers
from spieltisch.web.store import table_store
from spieltisch.web.store.db import ANNOUNCEMENTS, make_engine, migrate
from spieltisch.web.store.table_store import SeatRow
from spieltisch.web.tables import chat
from spieltisch.web.tables.presence import write_presence

from .apart import run_apart

POSTGRES = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "postgresql":
        if not POSTGRES:
            pytest.skip("SPIELTISCH_TEST_POSTGRES is not set")
        url = POSTGRES
    else:
        url = f"sqlite:///{tmp_path / 'fanout.db'}"
    migrate(url)
    made = make_engine(url)
    yield made
    made.dispose()


def new_table(engine: Engine, status: str = "playing") -> str:
    table_id = secrets.token_hex(8)
    seats = [SeatRow(n, "person", f"P{n}", None, f"h{n}{table_id}", True) for n in range(2)]
    table_store.create_table(engine, table_id, "awimbawe", 2, {}, 7, "host", seats)
    if status != "open":
        table_store.set_status(engine, table_id, status)
    return table_id


def heard(engine: Engine, after: int) -> list[tuple[str, str]]:
    return [(t, k) for _, t, k in announcements.read_after(engine, after)]


# --- announcements --------------------------------------------------------------------------


def test_a_payload_is_read_only_when_it_is_an_announcement() -> None:
    assert announcements.parse("abc table") == ("abc", "table")
    assert announcements.parse("abc presence") == ("abc", "presence")
    assert announcements.parse("abc dance") is None
    assert announcements.parse(" table") is None
    assert announcements.parse("abc") is None
    assert announcements.parse("x" * 60 + " table") is None  # longer than any table id allows


def test_the_listener_s_address_is_libpq_s() -> None:
    url = "postgresql+psycopg://user:p%40ss@db.example:5433/spiel?sslmode=require"
    assert announcements.listen_address(url) == (
        "postgresql://user:p%40ss@db.example:5433/spiel?sslmode=require"
    )


def test_sqlite_triggers_announce_each_kind_of_change_in_its_transaction(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    table_id = new_table(engine, "open")
    start = announcements.latest(engine)
    table_store.set_status(engine, table_id, "playing")
    seat = SeatRow(1, "bot", "Bot", "random", None, True)
    table_store.update_seat(engine, table_id, seat, new_holder=True)
    chat.add_note(engine, table_id, chat.CHAT, 0, 0, "hi")
    kinds = heard(engine, start)
    assert (table_id, "table") in kinds
    assert (table_id, "seats") in kinds
    assert kinds[-1] == (table_id, "notes")
    last = announcements.latest(engine)
    with pytest.raises(RuntimeError), engine.begin() as db:  # a change rolled back: no word
        db.execute(sa.text("UPDATE tables SET turn_since = 1 WHERE id = :id"), {"id": table_id})
        raise RuntimeError("rolled back")
    assert announcements.latest(engine) == last
    engine.dispose()


def test_presence_is_announced_when_a_seat_comes_or_goes_not_at_each_heartbeat(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'p.db'}"
    migrate(url)
    engine = make_engine(url)
    table_id = new_table(engine)
    start = announcements.latest(engine)
    write_presence(engine, "s1", {table_id: {0: 1, 1: 0}}, 10.0)
    assert heard(engine, start) == [(table_id, "presence")]
    beat = announcements.latest(engine)
    write_presence(engine, "s1", {table_id: {0: 1, 1: 0}}, 15.0)  # a heartbeat: nothing new
    assert heard(engine, beat) == []
    write_presence(engine, "s1", {table_id: {0: 1, 1: 2}}, 20.0)
    assert heard(engine, beat) == [(table_id, "presence")]
    engine.dispose()


def test_pruning_keeps_the_newest_announcements(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'n.db'}"
    migrate(url)
    engine = make_engine(url)
    with engine.begin() as db:
        db.execute(ANNOUNCEMENTS.insert(), [{"table_id": "t", "kind": "table"}] * 30)
    announcements.prune(engine, keep=10)
    assert len(announcements.read_after(engine, 0)) == 10
    assert announcements.latest(engine) == 30  # ids keep rising
    engine.dispose()


def test_postgres_triggers_notify_listeners_on_commit() -> None:
    if not POSTGRES:
        pytest.skip("SPIELTISCH_TEST_POSTGRES is not set")
    migrate(POSTGRES)
    engine = make_engine(POSTGRES)
    table_id = new_table(engine, "open")

    async def listen() -> list[str]:
        address = announcements.listen_address(POSTGRES)
        async with await psycopg.AsyncConnection.connect(address, autocommit=True) as db:
            await db.execute(f"LISTEN {announcements.CHANNEL}")
            await asyncio.to_thread(table_store.set_status, engine, table_id, "playing")
            await asyncio.to_thread(chat.add_note, engine, table_id, chat.CHAT, 0, 0, "hi")
            payloads = []
            async for notice in db.notifies(timeout=5.0, stop_after=2):
                payloads.append(notice.payload)
            return payloads

    assert run_apart(listen()) == [f"{table_id} table", f"{table_id} notes"]
    engine.dispose()


# --- leases ---------------------------------------------------------------------------------


def test_one_server_holds_a_table_until_its_lease_lapses(engine: Engine) -> None:
    table_id = new_table(engine)
    now = 1_000.0
    assert leases.claim(engine, "a", [table_id], now) == {table_id}
    assert leases.claim(engine, "b", [table_id], now + 1) == set()
    assert leases.claim(engine, "a", [table_id], now + 2) == {table_id}  # renewed
    lapsed = now + 2 + leases.TERM + 0.1
    assert leases.orphaned(engine, lapsed) == [table_id]
    assert leases.claim(engine, "b", [table_id], lapsed) == {table_id}  # taken over
    assert leases.claim(engine, "a", [table_id], lapsed + 1) == set()
    assert leases.holder(engine, table_id) == ("b", lapsed + leases.TERM)
    leases.release(engine, "b", [table_id])
    assert leases.claim(engine, "a", [table_id], lapsed + 1) == {table_id}  # free at once


def test_only_tables_being_played_are_orphaned(engine: Engine) -> None:
    playing, finished = new_table(engine), new_table(engine, "finished")
    leases.claim(engine, "a", [playing, finished], 0.0)
    assert set(leases.orphaned(engine, 100.0)) & {playing, finished} == {playing}
    leases.release(engine, "a")
    assert set(leases.orphaned(engine, 100.0)) & {playing, finished} == set()


# --- workers --------------------------------------------------------------------------------


def test_more_than_one_worker_needs_postgres() -> None:
    check_workers(1, Settings(database="sqlite:///x.db"))
    check_workers(4, Settings(database="postgresql+psycopg://u:p@h/d"))
    with pytest.raises(WorkersError, match="needs PostgreSQL"):
        check_workers(2, Settings(database="sqlite:///x.db"))
    with pytest.raises(WorkersError, match="1 to 64"):
        check_workers(0, Settings())


# --- catching up by moves -------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["auf-die-eier", "auweier", "awimbawe"])
def test_a_table_extended_by_the_moves_it_lacks_is_the_table_replayed_whole(game_id: str) -> None:
    game = spieltisch.load(game_id, 2)
    table = Table(game, ("A", "B"), seed=11)
    while not table.over and table.version < 60:
        if table.to_act() is None:
            table.advance_chance()
        else:
            table.play(table.legal()[0])
    record = table.record()
    for cut in (0, 1, record_length(record) // 2, record_length(record)):
        early = Record(record.game, record.players, record.options, record.moves[:cut],
                       record.seed, record.seats, record.dictated)  # fmt: skip
        copy = Table.from_record(game, early)
        copy.extend([(text, i in record.dictated) for i, text in enumerate(record.moves)][cut:])
        assert copy.version == table.version
        assert copy.view(0) == table.view(0) and copy.view(None) == table.view(None)


def record_length(record: Record) -> int:
    return len(record.moves)
