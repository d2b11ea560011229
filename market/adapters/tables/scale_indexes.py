"""Reads at scale (migration 0012): the composite indexes that keep reads flat.

Each index serves a read that must not grow with the ledger (README, "Reads at scale"):
the keyset pages of the lists and desks, the certificate page's children and the
transfers naming a buyer certificate, and the count behind a new certificate's number.
"""

from __future__ import annotations

from sqlalchemy import Index

from market.adapters.tables.certificates import Certificate
from market.adapters.tables.parties import Party
from market.adapters.tables.returns import CreditApplication
from market.adapters.tables.trading import Listing, Offer, Transfer

_certs = Certificate.__table__  # type: ignore[attr-defined]
_transfers = Transfer.__table__  # type: ignore[attr-defined]
_listings = Listing.__table__  # type: ignore[attr-defined]
_offers = Offer.__table__  # type: ignore[attr-defined]
_credit_apps = CreditApplication.__table__  # type: ignore[attr-defined]
_parties = Party.__table__  # type: ignore[attr-defined]
SCALE_INDEXES = (
    Index(
        "ix_certificates_numbering", _certs.c.program, _certs.c.fiscal_year, _certs.c.is_original
    ),
    Index("ix_certificates_holder_seq", _certs.c.holder_party_id, _certs.c.issued_seq),
    Index("ix_certificates_parent_seq", _certs.c.parent_id, _certs.c.issued_seq),
    Index("ix_transfers_buyer_certificate_id", _transfers.c.buyer_certificate_id),
    Index("ix_transfers_created_seq", _transfers.c.created_seq),
    Index("ix_transfers_certificate_seq", _transfers.c.certificate_id, _transfers.c.created_seq),
    Index(
        "ix_transfers_certificate_decided",
        _transfers.c.certificate_id,
        _transfers.c.decided_seq,
    ),
    Index("ix_transfers_status_seq", _transfers.c.status, _transfers.c.created_seq),
    Index("ix_transfers_status_decided", _transfers.c.status, _transfers.c.decided_seq),
    # consideration_cents last: the seller's paid total is a SUM read from the index alone.
    Index(
        "ix_transfers_seller_status_seq",
        _transfers.c.seller_party_id,
        _transfers.c.status,
        _transfers.c.created_seq,
        _transfers.c.consideration_cents,
    ),
    Index("ix_listings_status_seq", _listings.c.status, _listings.c.created_seq),
    # The pickers' first parties by name (migration 0013), read in order, not sorted.
    Index("ix_parties_name", _parties.c.name, _parties.c.tax_id),
    # Transfers of one program, for the report's and the queue's program filter (0013).
    Index("ix_transfers_program_status", _transfers.c.program, _transfers.c.status),
    # A participant's transfers in order, any status (the API's list as buyer).
    Index("ix_transfers_buyer_seq", _transfers.c.buyer_party_id, _transfers.c.created_seq),
    # A buyer's transfers in one status, in order (the buyer's desk asks for those
    # awaiting its consent: 0013); ix_transfers_buyer_seq walked every one of them.
    Index(
        "ix_transfers_buyer_status_seq",
        _transfers.c.buyer_party_id,
        _transfers.c.status,
        _transfers.c.created_seq,
    ),
    # A seller's negotiated transfers (no offer) newest first: its deals page (0013).
    # Partial, so no other read of a seller's transfers is planned onto it.
    Index(
        "ix_transfers_seller_direct_seq",
        _transfers.c.seller_party_id,
        _transfers.c.created_seq,
        sqlite_where=_transfers.c.offer_id.is_(None),
        postgresql_where=_transfers.c.offer_id.is_(None),
    ),
    # A certificate's open listings (every new transfer's balance check, migration 0013):
    # without it SQLite reads every open listing of the market through the status index.
    Index("ix_listings_certificate_status", _listings.c.certificate_id, _listings.c.status),
    Index(
        "ix_listings_seller_status_seq",
        _listings.c.seller_party_id,
        _listings.c.status,
        _listings.c.created_seq,
    ),
    Index("ix_offers_seller_seq", _offers.c.seller_party_id, _offers.c.created_seq),
    Index("ix_offers_buyer_seq", _offers.c.buyer_party_id, _offers.c.created_seq),
    Index(
        "ix_credit_applications_party_year",
        _credit_apps.c.party_id,
        _credit_apps.c.tax_year,
        _credit_apps.c.id,
    ),
)
