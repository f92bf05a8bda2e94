"""A table's life: whether it is rated, who left its game and how, how many moves were taken
back; and the keys that make creating a table twice answer the first table.

Revision ID: 0003_table_life
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_table_life"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_life",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False, default=False),
        sa.Column("departed", sa.JSON, nullable=False),
        sa.Column("undos", sa.Integer, nullable=False, default=0),
    )
    op.create_table(
        "create_keys",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("create_keys")
    op.drop_table("table_life")
