"""Moderation and accounts: operators, suspended and deleted accounts, blocks (a mute that
also keeps two people apart at tables and in invitations) and reports to the operators.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("operator", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("suspended", sa.Float(), nullable=True))
        batch.add_column(sa.Column("deleted", sa.Float(), nullable=True))
    with op.batch_alter_table("chat_mutes") as batch:
        batch.add_column(sa.Column("block", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=True),
        sa.Column("line_id", sa.Integer, nullable=True),
        sa.Column("room", sa.String(40), nullable=True),
        sa.Column("text", sa.String(2000), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("closed", sa.Float, nullable=True),
    )
    op.create_index("ix_reports_closed", "reports", ["closed"])


def downgrade() -> None:
    op.drop_index("ix_reports_closed", "reports")
    op.drop_table("reports")
    with op.batch_alter_table("chat_mutes") as batch:
        batch.drop_column("block")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("deleted")
        batch.drop_column("suspended")
        batch.drop_column("operator")
