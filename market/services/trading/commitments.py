"""Loads what a certificate's balance is promised to (market/domain/rules/commitments.py)
and refuses a listing, negotiated transfer or accepted offer that would promise more."""

from __future__ import annotations

from market.domain.model import Certificate
from market.domain.rules.commitments import Commitments, check_within_balance, commitments_from
from market.services.kernel.reads import Source, repositories


def commitments_of(source: Source, certificate_id: str) -> Commitments:
    """Read in one statement (TransferRepository.promised)."""
    promised = repositories(source).transfers.promised(certificate_id)
    sold = {lid: promised.sold.get(lid, 0) for lid in promised.open_listings}
    return commitments_from(promised.open_listings, sold, promised.undecided.items())


def check_new_listing(source: Source, cert: Certificate, listing_id: str, amount_cents: int) -> str:
    before = commitments_of(source, cert.id)
    after = before.with_listing(listing_id, amount_cents)
    return check_within_balance(cert.number, cert.balance_cents, before, after)


def check_new_transfer(
    source: Source, cert: Certificate, listing_id: str | None, amount_cents: int
) -> str:
    before = commitments_of(source, cert.id)
    after = before.with_transfer(listing_id, amount_cents)
    return check_within_balance(cert.number, cert.balance_cents, before, after)
