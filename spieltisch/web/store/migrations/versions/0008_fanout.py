"""Servers sharing one database tell each other what changed; one server moves each table.

``leases`` says which server process runs a table's bots and clock, until when; ``secrets``
keeps what the processes must agree on (made by the first that asks). Triggers
announce every committed change to a table, its seats, revoked links, votes and notes: on
PostgreSQL by ``NOTIFY spieltisch, '<table id> <kind>'`` (sent when the transaction commits,
never for one rolled back), on SQLite as a row of ``announcements`` in the same transaction,
which the other processes sharing the file read in order. A later migration that rebuilds one
of these tables on SQLite (``batch_alter_table``) must create its triggers again.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

WATCHED = (
    ("tables", "id", "table", ("UPDATE",)),
    ("seats", "table_id", "seats", ("INSERT", "UPDATE", "DELETE")),
    ("revoked", "table_id", "seats", ("INSERT", "UPDATE", "DELETE")),
    ("votes", "table_id", "votes", ("INSERT", "UPDATE", "DELETE")),
    ("notes", "table_id", "notes", ("INSERT",)),
)
"""The tables watched: the column naming the game table, the kind announced, and on what."""

POSTGRES_FUNCTION = """
CREATE OR REPLACE FUNCTION spieltisch_announce() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
    PERFORM pg_notify(
        'spieltisch', coalesce(changed ->> 'table_id', changed ->> 'id') || ' ' || TG_ARGV[0]
    );
    RETURN NULL;
END $$
"""


def upgrade() -> None:
    """The three tables, then the triggers for this database."""
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("server", sa.String(32), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_index("ix_leases_until", "leases", ["until"])
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
    )
    op.create_table(
        "secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(64), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(POSTGRES_FUNCTION)
        for table, _, kind, events in WATCHED:
            op.execute(
                f"CREATE TRIGGER announce_{table} AFTER {' OR '.join(events)} ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION spieltisch_announce('{kind}')"
            )
        return
    for table, column, kind, events in WATCHED:
        for event in events:
            row = "OLD" if event == "DELETE" else "NEW"
            op.execute(
                f"CREATE TRIGGER announce_{table}_{event.lower()} AFTER {event} ON {table} "
                f"BEGIN INSERT INTO announcements (table_id, kind) "
                f"VALUES ({row}.{column}, '{kind}'); END"
            )


def downgrade() -> None:
    """Drop the triggers and the three tables."""
    postgres = op.get_bind().dialect.name == "postgresql"
    for table, _, _, events in WATCHED:
        if postgres:
            op.execute(f"DROP TRIGGER IF EXISTS announce_{table} ON {table}")
            continue
        for event in events:
            op.execute(f"DROP TRIGGER IF EXISTS announce_{table}_{event.lower()}")
    if postgres:
        op.execute("DROP FUNCTION IF EXISTS spieltisch_announce()")
    op.drop_table("secrets")
    op.drop_table("announcements")
    op.drop_index("ix_leases_until", "leases")
    op.drop_table("leases")
