"""Loads what a certificate's balance is promised to (market/domain/rules/commitments.py)
and refuses a listing, negotiated transfer or accepted offer that would promise more."""

from __future__ import annotations

from typing import Any

from market.domain.rules.commitments import Commitments, check_within_balance
from market.services.reads import Source, repositories


def commitments_of(source: Source, certificate_id: str) -> Commitments:
    repos = repositories(source)
    open_listings = {
        r["id"]: int(r["amount_cents"]) for r in repos.listings.open_of_certificate(certificate_id)
    }
    pending: dict[str, int] = {}
    loose = 0
    for listing_id, amount in repos.transfers.undecided_by_listing(certificate_id).items():
        if listing_id is not None and listing_id in open_listings:
            pending[listing_id] = amount
        else:
            loose += amount
    listings = {
        lid: (max(0, amount - repos.listings.sold_cents(lid)), pending.get(lid, 0))
        for lid, amount in open_listings.items()
    }
    return Commitments(listings, loose)


def check_new_listing(
    source: Source, cert: dict[str, Any], listing_id: str, amount_cents: int
) -> str:
    before = commitments_of(source, cert["id"])
    after = before.with_listing(listing_id, amount_cents)
    return check_within_balance(cert["number"], int(cert["balance_cents"]), before, after)


def check_new_transfer(
    source: Source, cert: dict[str, Any], listing_id: str | None, amount_cents: int
) -> str:
    before = commitments_of(source, cert["id"])
    after = before.with_transfer(listing_id, amount_cents)
    return check_within_balance(cert["number"], int(cert["balance_cents"]), before, after)
