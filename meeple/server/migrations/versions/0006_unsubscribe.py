"""How many times each person turned turn e-mails on: an unsubscribe link names the time it
ends, so that it works once and a new subscription makes the old links void.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notify_settings") as batch:
        batch.add_column(sa.Column("subscription", sa.Integer(), nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("notify_settings") as batch:
        batch.drop_column("subscription")
