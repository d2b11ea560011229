"""What a certificate's usable balance is already promised to (issue 14 item 10; CMN-4(a)):
its open listings and its undecided transfers (awaiting the buyer or the Authority) never
add up to more than the balance, so every listing can be sold and every transfer approved
as far as the balance goes.

An open listing reserves what is left of it (its amount less what was sold from it) or, if
more, the transfers pending from its accepted offers; a transfer not from an open listing
(negotiated, or from a listing since withdrawn) reserves its amount.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from market.domain.errors import InsufficientBalanceError
from market.domain.values import format_cents


@dataclass(frozen=True)
class Commitments:
    # listing id -> (what is left of the listing, what its pending transfers hold)
    listings: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    loose_cents: int = 0  # undecided transfers not from an open listing

    def total(self) -> int:
        return sum(max(left, pending) for left, pending in self.listings.values()) + (
            self.loose_cents
        )

    def with_listing(self, listing_id: str, amount_cents: int) -> Commitments:
        return Commitments(dict(self.listings) | {listing_id: (amount_cents, 0)}, self.loose_cents)

    def with_transfer(self, listing_id: str | None, amount_cents: int) -> Commitments:
        if listing_id is None or listing_id not in self.listings:
            return Commitments(self.listings, self.loose_cents + amount_cents)
        left, pending = self.listings[listing_id]
        return Commitments(
            dict(self.listings) | {listing_id: (left, pending + amount_cents)}, self.loose_cents
        )


def commitments_from(
    open_listings: Mapping[str, int],
    sold: Mapping[str, int],
    undecided: Iterable[tuple[str | None, int]],
) -> Commitments:
    """From a certificate's open listings (id -> amount), the cents sold from each, and its
    undecided transfers (listing of their offer or None, amount)."""
    pending: dict[str, int] = {}
    loose = 0
    for listing_id, amount in undecided:
        if listing_id is not None and listing_id in open_listings:
            pending[listing_id] = pending.get(listing_id, 0) + amount
        else:
            loose += amount
    listings = {
        lid: (max(0, amount - sold.get(lid, 0)), pending.get(lid, 0))
        for lid, amount in open_listings.items()
    }
    return Commitments(listings, loose)


def check_within_balance(
    number: str, balance_cents: int, before: Commitments, after: Commitments
) -> str:
    """Refuse a new listing or transfer that would promise more than the usable balance."""
    if after.total() <= balance_cents or after.total() <= before.total():
        return (
            f"Open listings and pending transfers come to {format_cents(after.total())}, "
            f"within the usable balance of {format_cents(balance_cents)}."
        )
    raise InsufficientBalanceError(
        f"Certificate {number} has {format_cents(balance_cents)} usable, and "
        f"{format_cents(before.total())} of it is already offered in open listings or held "
        f"by pending transfers; this would commit {format_cents(after.total())}.",
        {
            "balance_cents": balance_cents,
            "committed_cents": before.total(),
            "would_commit_cents": after.total(),
        },
    )
