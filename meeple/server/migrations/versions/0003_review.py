"""Game reviews: one row per finished table and information set (``"all"`` or a seat), with
the job's progress, the positions searched so far (a stopped job resumes from them) and the
finished review.

Revision ID: 0003_review
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_review"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(8), primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("parts", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
