"""The accounts' migration on a database that holds games: made at revision 0005 (the schema
before accounts) with a table, its seats and moves, then upgraded to the newest schema (the
rows intact, the new tables and columns there, the schema exactly ``db.py``'s), and downgraded
back to 0005 (the rows still intact, the new tables gone).

On SQLite always; on PostgreSQL when ``SPIELTISCH_TEST_POSTGRES`` names a server (see
``tests/web/test_postgres.py``), each test in a database of its own, made and dropped here.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy.exc import IntegrityError

from spieltisch.web.store.db import METADATA, MIGRATIONS, make_engine
from tests.web.servers import drop_database

pytestmark = pytest.mark.timeout(120)
POSTGRES = os.environ.get("SPIELTISCH_TEST_POSTGRES", "")
BEFORE = "0005"
NEW_TABLES = {"accounts", "sessions", "passkeys", "challenges", "ratings", "rated"}

TABLE = {
    "id": "t1", "game": "auweier", "players": 2, "options": "{}", "seed": 42, "status": "playing",
    "version": 2, "host_hash": "h" * 64, "created_at": 1.5, "finished_at": None, "record": None,
    "rematch_of": None, "secret": "s" * 64, "commitment": "c" * 64, "hints": True,
    "rules": '{"clock": "none"}', "epoch": 1, "rematch": None, "turn_since": 2.5,
}  # fmt: skip
NO_SEAT_EXTRAS = {"salt": None, "stand_in": None, "bank": None, "token_origin": None}
SEATS = [
    {
        "table_id": "t1", "seat": 0, "kind": "person", "name": "Ann", "level": None,
        "token_hash": "a" * 64, "joined": True, "conceded_at": None, **NO_SEAT_EXTRAS,
    },
    {
        "table_id": "t1", "seat": 1, "kind": "bot", "name": "Bot 2 (heuristic)",
        "level": "heuristic", "token_hash": None, "joined": True, "conceded_at": None,
        **NO_SEAT_EXTRAS,
    },
]  # fmt: skip
MOVES = [
    {"table_id": "t1", "idx": 0, "text": "play 1", "dictated": False},
    {"table_id": "t1", "idx": 1, "text": "play 2", "dictated": True},
]


def config(url: str) -> Config:
    made = Config()
    made.set_main_option("script_location", str(MIGRATIONS))
    made.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return made


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: an SQLite file, or a PostgreSQL database of the test's own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite'}"
        return
    if not POSTGRES:
        pytest.skip("SPIELTISCH_TEST_POSTGRES is not set")
    name = f"spieltisch_migration_{secrets.token_hex(6)}"
    admin = sa.create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield sa.make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        drop_database(admin, name)
        admin.dispose()


def reflected(url: str) -> sa.MetaData:
    engine = make_engine(url, writer=False)
    found = sa.MetaData()
    found.reflect(engine)
    engine.dispose()
    return found


def contents(url: str) -> dict[str, list[dict[str, Any]]]:
    """The games' rows as they stand (the columns revision 0005 had)."""
    found = reflected(url)
    engine = make_engine(url, writer=False)
    rows: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as connection:
        for name, columns in (("tables", TABLE), ("seats", SEATS[0]), ("moves", MOVES[0])):
            table = found.tables[name]
            query = sa.select(*(table.c[column] for column in columns))
            order = [table.c[k] for k in ("id", "table_id", "seat", "idx") if k in table.c]
            found_rows = connection.execute(query.order_by(*order)).mappings()
            rows[name] = [dict(row) for row in found_rows]
    engine.dispose()
    return rows


def made_at_0005(url: str) -> None:
    command.upgrade(config(url), BEFORE)
    found = reflected(url)
    assert not NEW_TABLES & set(found.tables)
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(found.tables["tables"].insert(), [TABLE])
        connection.execute(found.tables["seats"].insert(), SEATS)
        connection.execute(found.tables["moves"].insert(), MOVES)
    engine.dispose()


def test_upgrade_keeps_the_games_and_adds_the_accounts(url: str) -> None:
    made_at_0005(url)
    before = contents(url)
    assert before == {"tables": [TABLE], "seats": SEATS, "moves": MOVES}
    command.upgrade(config(url), "head")
    assert contents(url) == before
    found = reflected(url)
    assert set(found.tables) >= NEW_TABLES
    seats = found.tables["seats"]
    assert "account_id" in seats.c
    assert any(index.columns.keys() == ["account_id"] for index in seats.indexes)
    engine = make_engine(url)
    with engine.connect() as connection:
        held = connection.execute(sa.select(seats.c.account_id)).scalars().all()
        assert held == [None, None]  # seats taken before belong to no account
        drift = compare_metadata(MigrationContext.configure(connection), METADATA)
    assert drift == []  # the migrated schema is exactly db.py's
    engine.dispose()


def test_the_new_tables_take_accounts(url: str) -> None:
    made_at_0005(url)
    command.upgrade(config(url), "head")
    found = reflected(url)
    accounts, sessions = found.tables["accounts"], found.tables["sessions"]
    ann = {"id": "a1", "name": "Ann", "name_key": "ann", "password_hash": None, "created_at": 1.0}
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(accounts.insert().values(**ann))
        connection.execute(
            sessions.insert().values(
                id_hash="x" * 64, account_id="a1", csrf="c", created_at=1.0, seen_at=1.0
            )
        )
        listed = connection.execute(sa.select(accounts.c.listed)).scalar_one()
        assert listed is False  # the server default
    with pytest.raises(IntegrityError), engine.begin() as connection:
        connection.execute(accounts.insert().values(**{**ann, "id": "a2", "name": "ANN"}))
    with pytest.raises(IntegrityError), engine.begin() as connection:  # no session without one
        connection.execute(
            sessions.insert().values(
                id_hash="y" * 64, account_id="nobody", csrf="c", created_at=1.0, seen_at=1.0
            )
        )
    engine.dispose()


def test_downgrade_to_0005_keeps_the_games(url: str) -> None:
    made_at_0005(url)
    before = contents(url)
    command.upgrade(config(url), "head")
    command.downgrade(config(url), BEFORE)
    found = reflected(url)
    assert not NEW_TABLES & set(found.tables)
    assert "account_id" not in found.tables["seats"].c
    assert contents(url) == before
    if url.startswith("sqlite"):  # foreign keys were off while tables were copied: still sound
        engine = make_engine(url, writer=False)
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []
        engine.dispose()
    command.upgrade(config(url), "head")  # and up again
    assert set(reflected(url).tables) >= NEW_TABLES
