"""The matches table."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("log", sa.Text, nullable=False),
        sa.Column("move_no", sa.Integer, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("matches")
