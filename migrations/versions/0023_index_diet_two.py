"""The index diet, second pass (issue 25): drop three indexes whose every read a wider
index serves with the same leading columns.

- ix_listings_certificate_id (certificate_id): ix_listings_certificate_status leads
  with it.
- ix_offers_buyer_party_id (buyer_party_id): ix_offers_buyer_seq leads with it.
- ix_transfers_buyer_seq (buyer_party_id, created_seq): run over the whole e2e suite,
  no read was planned onto it (only the foreign-key check of a party's deletion, which
  ix_transfers_buyer_status_seq serves by its leading column); a buyer's transfers are
  read by status (the desk) or through its deals.

Each write to those tables updates one B-tree fewer: a new transfer 10 indexes (was 11),
a listing 3 (was 4), an offer 3 (was 4). tests/integration/test_read_indexes.py names
the read that justifies each index kept on the tables every write request touches.

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
    ("transfers", "ix_transfers_buyer_seq", ["buyer_party_id", "created_seq"]),
]


def upgrade() -> None:
    for table, name, _columns in DROPPED:
        op.drop_index(name, table_name=table)


def downgrade() -> None:
    for table, name, columns in reversed(DROPPED):
        op.create_index(name, table, columns, unique=False)
