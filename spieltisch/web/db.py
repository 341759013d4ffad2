"""The server's database: its schema, the engine for a URL, and the migrations on start.

Tables are kept as logs of moves: a table's state is always the replay of its moves, so a
restart, a replay and a download share one path. The schema is created and changed only by
the Alembic migrations in ``migrations/``, applied when the server starts, so a database
written by one version opens in the next. SQLite runs in WAL mode; the writer's transactions
start with ``BEGIN IMMEDIATE`` (SQLAlchemy's documented recipe for pysqlite, whose own
transaction handling would begin lazily), so a writer takes its lock at once, and reads go
through a second engine whose transactions are deferred, so that they never wait for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import event
from sqlalchemy.engine import Engine

METADATA = sa.MetaData()

TABLES = sa.Table(
    "tables",
    METADATA,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("host_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float),
    sa.Column("record", sa.Text),
    sa.Column("rematch_of", sa.String(32)),
    sa.Column("secret", sa.String(64)),
    sa.Column("commitment", sa.String(64)),
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("rules", sa.Text, nullable=False, server_default="{}"),
    sa.Column("epoch", sa.Integer, nullable=False, server_default="0"),
    sa.Column("rematch", sa.String(32)),
    sa.Column("turn_since", sa.Float),
)

SEATS = sa.Table(
    "seats",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("level", sa.String(40)),
    sa.Column("token_hash", sa.String(64)),
    sa.Column("joined", sa.Boolean, nullable=False),
    sa.Column("salt", sa.String(64)),
    sa.Column("stand_in", sa.String(40)),
    sa.Column("bank", sa.Float),
    sa.Column("token_origin", sa.String(64)),
    sa.Column("conceded_at", sa.Integer),
)

MOVES = sa.Table(
    "moves",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("dictated", sa.Boolean, nullable=False),
)

ANALYSES = sa.Table(
    "analyses",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("result", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

REVOKED = sa.Table(
    "revoked",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
"""Seat tokens that once held a seat and no longer do, and why (for the stale-link page)."""

PRESENCE = sa.Table(
    "presence",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("server", sa.String(32), primary_key=True),
    sa.Column("connections", sa.Integer, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),
)
"""Each server's open connections per seat, and when it last saw the seat connected."""

NOTES = sa.Table(
    "notes",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("seat", sa.Integer),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
"""A table's chat lines and notices (seat changes, stand-ins), in order."""

VOTES = sa.Table(
    "votes",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("voter", sa.Integer, primary_key=True),
    sa.Column("yes", sa.Boolean, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
"""Votes on handing an absent seat to a bot: the seat, who voted, and how."""

MIGRATIONS = Path(__file__).parent / "migrations"


def make_engine(url: str, writer: bool = True) -> Engine:
    """An engine for ``url``. For SQLite, a WAL-mode file; a ``writer``'s transactions begin
    at once with the write lock (``BEGIN IMMEDIATE``), a reader's are deferred and take no
    lock, so that reading never holds up the writer."""
    if not url.startswith("sqlite"):
        return sa.create_engine(url, pool_pre_ping=True)
    engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, record: Any) -> None:
        del record
        dbapi_connection.isolation_level = None  # let SQLAlchemy's BEGIN below be the one
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN DEFERRED")

    return engine


def migrate(url: str) -> None:
    """Bring the database at ``url`` up to the newest schema (creating it if it is new)."""
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    command.upgrade(config, "head")
