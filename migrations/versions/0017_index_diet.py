"""The index diet (issue 25): drop the five single-column indexes that lead a composite
index already (ix_transfers_certificate_id, _seller_party_id, _buyer_party_id,
ix_certificates_holder_party_id, _parent_id). Any read one of them served, the
composite serves as well (its leading column is the same); each write saved one B-tree
to update. tests/integration/test_read_indexes.py proves the composites are used.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02 10:00:00.000000
"""

from alembic import op


revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


DROPPED = [
    ("transfers", "ix_transfers_certificate_id", ["certificate_id"]),
    ("transfers", "ix_transfers_seller_party_id", ["seller_party_id"]),
    ("transfers", "ix_transfers_buyer_party_id", ["buyer_party_id"]),
    ("certificates", "ix_certificates_holder_party_id", ["holder_party_id"]),
    ("certificates", "ix_certificates_parent_id", ["parent_id"]),
]


def upgrade() -> None:
    for table, name, _columns in DROPPED:
        op.drop_index(name, table_name=table)


def downgrade() -> None:
    for table, name, columns in reversed(DROPPED):
        op.create_index(name, table, columns, unique=False)
