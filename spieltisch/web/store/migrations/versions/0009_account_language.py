"""An account's language: the pages of a signed-in person open in it, on every device.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (empty: an account chose no language until it switches one)."""
    op.add_column("accounts", sa.Column("language", sa.String(8)))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("language")
