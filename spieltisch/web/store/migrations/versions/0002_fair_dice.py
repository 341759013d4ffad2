"""Dice anyone can verify: each table's secret and commitment, each seat's salt.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (empty for tables made before: their dice carry no proof)."""
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("secret", sa.String(64)))
        table.add_column(sa.Column("commitment", sa.String(64)))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("salt", sa.String(64)))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("salt")
    with op.batch_alter_table("tables") as table:
        table.drop_column("commitment")
        table.drop_column("secret")
