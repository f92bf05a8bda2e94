"""The tables by their owner: the quotas look up a person's open tables at every new table
and rematch, which read every running table without it.

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tables_owner_id", "tables", ["owner_id"])


def downgrade() -> None:
    op.drop_index("ix_tables_owner_id", "tables")
