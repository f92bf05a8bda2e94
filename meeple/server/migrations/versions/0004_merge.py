"""One head again after the table's life, the community and the reviews, each added from 0002.

Revision ID: 0004
Revises: 0003_table_life, 0003_community, 0003_review
"""

revision = "0004"
down_revision = ("0003_table_life", "0003_community", "0003_review")
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change: the three branches touch tables of their own."""


def downgrade() -> None:
    """Nothing to change."""
