"""A certificate's open listings by one index: every new transfer and listing checks the
certificate's balance against them (market/services/commitments.py), and with only the
certificate index and the status index SQLite's planner chose the status one, so each
check read every open listing of the market (1.0 ms at 150,000 events, growing)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 15:00:00.000000
"""

from alembic import op


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_listings_certificate_status", "listings", ["certificate_id", "status"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_listings_certificate_status", table_name="listings")
