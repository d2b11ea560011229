"""Indexes found by bench_scale at 300,000 events: a certificate's open listings (every new
transfer and listing checks the certificate's balance against them, and with only the
certificate index and the status index SQLite's planner chose the status one, so each
check read every open listing of the market: 1.0 ms at 150,000 events and growing); the
parties by name (the pickers' first fifty, read in order instead of sorting them all);
the transfers of one program by status (the report's and the queue's program filter); a
buyer's transfers in one status in order (the buyer's desk: those awaiting its consent,
which walked every transfer of the buyer); a seller's negotiated transfers newest first (its
deals page read every deal it had made and kept 500)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 15:00:00.000000
"""

from alembic import op
import sqlalchemy as sa


revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


INDEXES = [
    ("listings", "ix_listings_certificate_status", ["certificate_id", "status"]),
    ("parties", "ix_parties_name", ["name", "tax_id"]),
    ("transfers", "ix_transfers_program_status", ["program", "status"]),
    ("transfers", "ix_transfers_buyer_status_seq", ["buyer_party_id", "status", "created_seq"]),
]
DIRECT = "offer_id IS NULL"


def upgrade() -> None:
    for table, name, columns in INDEXES:
        op.create_index(name, table, columns, unique=False)
    # Partial: only the negotiated transfers (no offer), so the paid total and the other
    # reads of a seller's transfers keep their own indexes.
    op.create_index(
        "ix_transfers_seller_direct_seq",
        "transfers",
        ["seller_party_id", "created_seq"],
        unique=False,
        sqlite_where=sa.text(DIRECT),
        postgresql_where=sa.text(DIRECT),
    )


def downgrade() -> None:
    op.drop_index("ix_transfers_seller_direct_seq", table_name="transfers")
    for table, name, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
