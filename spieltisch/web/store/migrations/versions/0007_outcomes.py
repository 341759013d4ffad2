"""A finished table's outcome (each seat's place), kept so that a player's history and record
are read without replaying their games.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (tables finished before get theirs when a history first reads them)."""
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("outcome", sa.Text))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("tables") as table:
        table.drop_column("outcome")
