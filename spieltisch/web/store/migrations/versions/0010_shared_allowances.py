"""Allowances every server process counts together, and who made each table.

``allowances`` keeps token buckets in the database (new tables per address, sign-in and
sign-up attempts), so that N processes give an address its allowance once, not N times;
``table_owners`` names who made each table, so that the bot pool shares its workers fairly
among the people (addresses or accounts) who made tables, in every process and after a
restart. Neither is watched by the announcement triggers (migration 0008): nothing about a
table changes when its owner or an allowance is written.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The two tables (empty: a table made before has no owner and counts as its own)."""
    op.create_table(
        "table_owners",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("owner", sa.String(100), nullable=False),
    )
    op.create_table(
        "allowances",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("stamp", sa.Float, nullable=False),
        sa.Column("full_at", sa.Float, nullable=False),
    )
    op.create_index("ix_allowances_full_at", "allowances", ["full_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_allowances_full_at", "allowances")
    op.drop_table("allowances")
    op.drop_table("table_owners")
