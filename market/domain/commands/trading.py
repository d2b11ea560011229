"""The trading commands (PRODUCT.md 8.2): a negotiated transfer proposed, the buyer's
consent, the Authority's approval."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class CreateTransfer:
    """The holder proposes a negotiated sale to a named buyer, optionally attesting the
    use of the proceeds (BR-14, TB-25)."""

    certificate_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    agreement_ref: str | None = None
    use_of_proceeds: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConfirmTransfer:
    """The buyer consents to a negotiated transfer (PRODUCT.md 8.2)."""

    transfer_id: str


@dataclass(frozen=True)
class ApproveTransfer:
    """The Authority approves a transfer; `exchange_on` back-dates the exchange (the
    business date when None)."""

    transfer_id: str
    exchange_on: date | None = None


@dataclass(frozen=True)
class CreateListing:
    """The holder lists part of a certificate at an ask (the price for the whole amount)."""

    certificate_id: str
    amount_cents: int
    ask_cents: int


@dataclass(frozen=True)
class MakeOffer:
    """A buyer offers on a listing, standing through `expires_on` when given."""

    listing_id: str
    amount_cents: int
    price_cents: int
    expires_on: date | None = None


@dataclass(frozen=True)
class CounterOffer:
    """The seller answers an open offer with its own terms (issue 28 item 3)."""

    offer_id: str
    amount_cents: int
    price_cents: int
    expires_on: date | None = None


@dataclass(frozen=True)
class RecordPayment:
    """The buyer records paying the consideration (PRODUCT.md 8.3, the closing record)."""

    transfer_id: str
    reference: str
    amount_cents: int
    paid_on: date
