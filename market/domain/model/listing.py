"""A listing (part of a certificate offered at an ask) and the offers buyers make on it
(PRODUCT.md 8.1, 8.2), each guarding the states a step needs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from market.domain.errors import ConflictError


class ListingStatus(StrEnum):
    OPEN = "open"
    SUSPENDED = "suspended"  # by a trading halt (PRODUCT.md 8.3)
    SOLD = "sold"
    WITHDRAWN = "withdrawn"


class OfferStatus(StrEnum):
    OPEN = "open"
    COUNTERED = "countered"
    ACCEPTED = "accepted"
    DECLINED = "declined"


@dataclass(frozen=True)
class Listing:
    id: str
    certificate_id: str
    seller_party_id: str
    amount_cents: int
    ask_cents: int
    status: ListingStatus

    @staticmethod
    def stream_of(listing_id: str) -> str:
        return f"listing-{listing_id}"

    @property
    def stream(self) -> str:
        return self.stream_of(self.id)

    def check_open(self) -> None:
        self._check(ListingStatus.OPEN)

    def check_withdrawable(self) -> None:
        """A listing a trading halt suspended may be withdrawn too."""
        self._check(ListingStatus.OPEN, ListingStatus.SUSPENDED)

    def _check(self, *allowed: ListingStatus) -> None:
        if self.status not in allowed:
            raise ConflictError(
                f"Listing {self.id} is {self.status.value}, not open.",
                {"listing_id": self.id, "status": self.status.value},
            )


@dataclass(frozen=True)
class Offer:
    id: str
    listing_id: str
    certificate_id: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    price_cents: int
    status: OfferStatus
    expires_on: date | None = None
    counter_amount_cents: int | None = None
    counter_price_cents: int | None = None
    counter_expires_on: date | None = None

    def check_open(self) -> None:
        if self.status is not OfferStatus.OPEN:
            raise ConflictError(
                f"Offer {self.id} is {self.status.value}, not open.",
                {"offer_id": self.id, "status": self.status.value},
            )

    def counter_terms(self) -> tuple[int, int]:
        """The seller's counter: (amount, price) in cents."""
        if self.counter_amount_cents is None or self.counter_price_cents is None:
            raise ConflictError(f"Offer {self.id} carries no counter.", {"offer_id": self.id})
        return self.counter_amount_cents, self.counter_price_cents

    def check_countered(self) -> None:
        if self.status is not OfferStatus.COUNTERED:
            raise ConflictError(
                f"Offer {self.id} is {self.status.value}, not countered by the seller.",
                {"offer_id": self.id, "status": self.status.value},
            )
