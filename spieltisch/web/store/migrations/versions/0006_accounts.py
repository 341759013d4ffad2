"""Accounts, for the players who want one: their sessions, passkeys and WebAuthn challenges,
their ratings, the rated tables already counted, and the account that holds a person seat.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _account_id(primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(
        "account_id", sa.String(32), sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False, primary_key=primary_key,
    )  # fmt: skip


def upgrade() -> None:
    """Create the tables and the seats' column (seats taken before belong to no account)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text),
        sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        _account_id(),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(255), primary_key=True),
        _account_id(),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("account_id", sa.String(32)),
        sa.Column("name", sa.String(64)),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        _account_id(primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rated",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("account_id", sa.String(32)))
        seats.create_index("ix_seats_account_id", ["account_id"])


def downgrade() -> None:
    """Drop them again (every account, session and rating with them)."""
    with op.batch_alter_table("seats") as seats:
        seats.drop_index("ix_seats_account_id")
        seats.drop_column("account_id")
    op.drop_table("rated")
    op.drop_table("ratings")
    op.drop_table("challenges")
    op.drop_index("ix_passkeys_account_id", "passkeys")
    op.drop_table("passkeys")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
