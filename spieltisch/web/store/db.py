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
    sa.Column("outcome", sa.Text),
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
    sa.Column("account_id", sa.String(32), index=True),
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


def _owner(*, index: bool = False, primary_key: bool = False) -> sa.Column[str]:
    """The account a row belongs to (the row goes when the account goes)."""
    return sa.Column(
        "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False, index=index, primary_key=primary_key,
    )  # fmt: skip


ACCOUNTS = sa.Table(
    "accounts",
    METADATA,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.Text),
    sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("language", sa.String(8)),
)
"""People who chose to have an account: the name as they typed it (a display name), the
name casefolded (unique: no two accounts read alike), the argon2id hash of their password
(none for an account with passkeys only), whether they show their profile and appear on
the leaderboards, and the language their pages open in (none until they choose one)."""

SESSIONS = sa.Table(
    "sessions",
    METADATA,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    _owner(index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),
)
"""Signed-in browsers: the SHA-256 of each session cookie (never the cookie), the account,
the session's CSRF token, and when it began and was last seen."""

PASSKEYS = sa.Table(
    "passkeys",
    METADATA,
    sa.Column("id", sa.String(255), primary_key=True),
    _owner(index=True),
    sa.Column("public_key", sa.Text, nullable=False),
    sa.Column("sign_count", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""An account's passkeys (WebAuthn credentials): the credential id and public key
(base64url), and the authenticator's signature counter as last seen."""

CHALLENGES = sa.Table(
    "challenges",
    METADATA,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("challenge", sa.String(128), nullable=False),
    sa.Column("account_id", sa.String(32)),
    sa.Column("name", sa.String(64)),
    sa.Column("purpose", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""WebAuthn challenges on their way (base64url; each used once, within five minutes): what
for (``register``, ``signin``, ``signup``), the account it is for (for ``signup``: the one
to make) and, for ``signup``, the name asked for."""

RATINGS = sa.Table(
    "ratings",
    METADATA,
    _owner(primary_key=True),
    sa.Column("game", sa.String(40), primary_key=True),
    sa.Column("players", sa.Integer, primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)
"""An account's rating per game and player count (OpenSkill's mu and sigma), with the
number of rated games behind it."""

RATED = sa.Table(
    "rated",
    METADATA,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
)
"""Finished rated tables whose ratings were applied (written in the same transaction as the
ratings, so that a table's result counts exactly once)."""

LEASES = sa.Table(
    "leases",
    METADATA,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("server", sa.String(32), nullable=False),
    sa.Column("until", sa.Float, nullable=False, index=True),
)
"""Which server process moves each table's bots and watches its clock, until when (renewed
while it lives; a lease past its time may be taken by another process). No foreign key: a
lease outlives nothing, and an expired table is deleted whatever its lease says."""

ANNOUNCEMENTS = sa.Table(
    "announcements",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
)
"""SQLite only: what changed at which table, appended by triggers in the changing transaction
and read by every server process sharing the file (in order of ``id``). PostgreSQL's triggers
announce through ``NOTIFY`` instead and leave this table empty."""

SECRETS = sa.Table(
    "secrets",
    METADATA,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(64), nullable=False),
)
"""Secrets every server process sharing the database must agree on (hex), made by the first
that asks: the seed of the hints' search, the dice of a lesson's closing game."""

TABLE_OWNERS = sa.Table(
    "table_owners",
    METADATA,
    sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("tables.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("owner", sa.String(100), nullable=False),
)
"""Who made each table (``account:<id>`` for a signed-in host, else ``address:<address>``):
the bot pool shares its workers fairly among them, in every process and after a restart. A
rematch has no row of its own and counts as its first table's; the row goes with its table."""

ALLOWANCES = sa.Table(
    "allowances",
    METADATA,
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("stamp", sa.Float, nullable=False),
    sa.Column("full_at", sa.Float, nullable=False, index=True),
)
"""Allowances every server process sharing the database counts together (token buckets: new
tables per address, sign-in and sign-up attempts): what is left, as of when (wall-clock
seconds), and when the bucket is full again (a full bucket's row may go)."""

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
