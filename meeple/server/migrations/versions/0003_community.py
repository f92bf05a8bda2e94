"""The community: chat lines and mutes, ratings and their history, follows, invitations and
turn-mail settings.

Revision ID: 0003_community
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_community"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(40), nullable=False, index=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("spectator", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("muted_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False,
                  index=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False, index=True),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("user_id", "table_id", name="uq_rating_history_table"),
    )
    op.create_table(
        "follows",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("followed_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("from_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False, index=True),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "notify_settings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("turn_mail", sa.Boolean, nullable=False),
        sa.Column("last_mailed", sa.Float, nullable=True),
    )


def downgrade() -> None:
    for name in ("notify_settings", "invitations", "follows", "rating_history", "ratings",
                 "chat_mutes", "chat_messages"):
        op.drop_table(name)
