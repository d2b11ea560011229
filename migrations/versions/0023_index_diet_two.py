"""The index diet, second pass (issue 25): drop two indexes whose every read a wider
index serves with the same leading columns.

- ix_listings_certificate_id (certificate_id): ix_listings_certificate_status leads
  with it.
- ix_offers_buyer_party_id (buyer_party_id): ix_offers_buyer_seq leads with it.

A listing and an offer each update 3 indexes (was 4). ix_transfers_buyer_seq stays: a
participant's transfers without a status filter walk it in order (with only
ix_transfers_buyer_status_seq they are all read and sorted);
tests/integration/test_read_indexes.py holds that read to it.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07 04:20:00.000000
"""

from alembic import op


revision = '0023'
down_revision = '0022'
branch_labels = None
depends_on = None


DROPPED = [
    ("listings", "ix_listings_certificate_id", ["certificate_id"]),
    ("offers", "ix_offers_buyer_party_id", ["buyer_party_id"]),
]


def upgrade() -> None:
    for table, name, _columns in DROPPED:
        op.drop_index(name, table_name=table)


def downgrade() -> None:
    for table, name, columns in reversed(DROPPED):
        op.create_index(name, table, columns, unique=False)
