"""Whether a table's host allows hints (the strongest bot's advice, on request).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the flag; tables made before allow none."""
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop it again."""
    with op.batch_alter_table("tables") as table:
        table.drop_column("hints")
