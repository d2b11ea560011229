"""Loads what a certificate's balance is promised to (market/domain/rules/commitments.py)
and refuses a listing, negotiated transfer or accepted offer that would promise more."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.engine import Connection

from market.adapters.tables import Listing, Offer, Transfer
from market.domain.rules.commitments import Commitments, check_within_balance
from market.services.trade_views import sold_from_listing

listings_t = Listing.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]

UNDECIDED = ("awaiting_buyer", "pending_approval")


def commitments_of(conn: Connection, certificate_id: str) -> Commitments:
    open_listings = {
        r.id: int(r.amount_cents)
        for r in conn.execute(
            select(listings_t.c.id, listings_t.c.amount_cents).where(
                listings_t.c.certificate_id == certificate_id, listings_t.c.status == "open"
            )
        )
    }
    pending: dict[str, int] = {}
    loose = 0
    # Summed in SQL per listing (a certificate sold in pieces can have thousands of
    # undecided transfers); an undecided transfer has no decided_seq, so the walk is the
    # (certificate_id, decided_seq IS NULL) range of ix_transfers_certificate_decided.
    rows = conn.execute(
        select(offers_t.c.listing_id, func.sum(transfers_t.c.amount_cents))
        .select_from(transfers_t.outerjoin(offers_t, and_(offers_t.c.id == transfers_t.c.offer_id)))
        .where(
            transfers_t.c.certificate_id == certificate_id,
            transfers_t.c.decided_seq.is_(None),
            transfers_t.c.status.in_(UNDECIDED),
        )
        .group_by(offers_t.c.listing_id)
    )
    for listing_id, total in rows:
        if listing_id in open_listings:
            pending[listing_id] = int(total)
        else:
            loose += int(total)
    listings = {
        lid: (max(0, amount - sold_from_listing(conn, lid)), pending.get(lid, 0))
        for lid, amount in open_listings.items()
    }
    return Commitments(listings, loose)


def check_new_listing(
    conn: Connection, cert: dict[str, Any], listing_id: str, amount_cents: int
) -> str:
    before = commitments_of(conn, cert["id"])
    after = before.with_listing(listing_id, amount_cents)
    return check_within_balance(cert["number"], int(cert["balance_cents"]), before, after)


def check_new_transfer(
    conn: Connection, cert: dict[str, Any], listing_id: str | None, amount_cents: int
) -> str:
    before = commitments_of(conn, cert["id"])
    after = before.with_transfer(listing_id, amount_cents)
    return check_within_balance(cert["number"], int(cert["balance_cents"]), before, after)
