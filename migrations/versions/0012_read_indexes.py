"""Indexes for reads that stay flat as the ledger grows: keyset pages of transfers,
listings, offers, holdings and a certificate's children; the transfers naming a buyer
certificate (a certificate's history); a seller's approved sales (the paid total); the
count behind a new certificate's number (it used the program index, so it counted every
certificate of the program: that index is replaced); a party's credit applications by
tax year

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 09:00:00.000000
"""

from alembic import op


revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None

INDEXES = [
    ("certificates", "ix_certificates_numbering", ["program", "fiscal_year", "is_original"]),
    ("certificates", "ix_certificates_holder_seq", ["holder_party_id", "issued_seq"]),
    ("certificates", "ix_certificates_parent_seq", ["parent_id", "issued_seq"]),
    ("transfers", "ix_transfers_buyer_certificate_id", ["buyer_certificate_id"]),
    ("transfers", "ix_transfers_created_seq", ["created_seq"]),
    ("transfers", "ix_transfers_certificate_seq", ["certificate_id", "created_seq"]),
    ("transfers", "ix_transfers_certificate_decided", ["certificate_id", "decided_seq"]),
    ("transfers", "ix_transfers_status_seq", ["status", "created_seq"]),
    ("transfers", "ix_transfers_status_decided", ["status", "decided_seq"]),
    # consideration_cents last: the paid total is read from the index alone
    (
        "transfers",
        "ix_transfers_seller_status_seq",
        ["seller_party_id", "status", "created_seq", "consideration_cents"],
    ),
    ("transfers", "ix_transfers_buyer_seq", ["buyer_party_id", "created_seq"]),
    ("listings", "ix_listings_status_seq", ["status", "created_seq"]),
    ("listings", "ix_listings_seller_status_seq", ["seller_party_id", "status", "created_seq"]),
    ("offers", "ix_offers_seller_seq", ["seller_party_id", "created_seq"]),
    ("offers", "ix_offers_buyer_seq", ["buyer_party_id", "created_seq"]),
    ("credit_applications", "ix_credit_applications_party_year", ["party_id", "tax_year", "id"]),
]


def upgrade() -> None:
    # Plain CREATE/DROP INDEX (no batch): SQLite does both in place, without a table rebuild.
    for table, name, columns in INDEXES:
        op.create_index(name, table, columns, unique=False)
    # ix_certificates_numbering leads with program: the old index only let PostgreSQL's
    # planner pick it for the numbering count, which then read every certificate of the
    # program.
    op.drop_index("ix_certificates_program", table_name="certificates")


def downgrade() -> None:
    op.create_index("ix_certificates_program", "certificates", ["program"], unique=False)
    for table, name, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
