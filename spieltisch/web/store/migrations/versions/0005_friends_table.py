"""The friends' table: house rules (clock, takeover, chat), seat holders that change hands
(an epoch, stand-in bots, derived tokens, concessions), revoked links, presence across
servers, the table's notes (chat and notices), takeover votes, and the rematch link.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns and tables; tables made before get the default house rules."""
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("rules", sa.Text, nullable=False, server_default="{}"))
        table.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
        table.add_column(sa.Column("rematch", sa.String(32)))
        table.add_column(sa.Column("turn_since", sa.Float))
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("stand_in", sa.String(40)))
        seats.add_column(sa.Column("bank", sa.Float))
        seats.add_column(sa.Column("token_origin", sa.String(64)))
        seats.add_column(sa.Column("conceded_at", sa.Integer))
    op.create_table(
        "revoked",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("server", sa.String(32), primary_key=True),
        sa.Column("connections", sa.Integer, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_table(
        "notes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "votes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("voter", sa.Integer, primary_key=True),
        sa.Column("yes", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("votes")
    op.drop_table("notes")
    op.drop_table("presence")
    op.drop_table("revoked")
    with op.batch_alter_table("seats") as seats:
        for name in ("conceded_at", "token_origin", "bank", "stand_in"):
            seats.drop_column(name)
    with op.batch_alter_table("tables") as table:
        for name in ("turn_since", "rematch", "epoch", "rules"):
            table.drop_column(name)
