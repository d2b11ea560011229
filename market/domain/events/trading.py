"""Listings, offers and transfers, on the streams `listing-<id>` and `transfer-<id>`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate, JsonObject, omitted


@event
class ListingCreated(DomainEvent):
    TYPE = "LISTING_CREATED"
    listing_id: str
    certificate_id: str
    seller_party_id: str
    amount_cents: int
    ask_cents: int


@event
class ListingWithdrawn(DomainEvent):
    TYPE = "LISTING_WITHDRAWN"
    listing_id: str


@event
class OfferMade(DomainEvent):
    TYPE = "OFFER_MADE"
    offer_id: str
    listing_id: str
    certificate_id: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    price_cents: int
    # Issue 28 item 3: the last business date it may be accepted; absent: no expiry.
    expires_on: IsoDate | None = omitted(None)


@event
class OfferCountered(DomainEvent):
    """The seller answers an open offer with its own terms, which the buyer accepts or
    declines; `expires_on` as an offer's."""

    TYPE = "OFFER_COUNTERED"
    offer_id: str
    listing_id: str
    amount_cents: int
    price_cents: int
    expires_on: IsoDate | None = omitted(None)


@event
class CounterOfferAccepted(DomainEvent):
    """The buyer accepts the seller's counter: a transfer on the counter's terms follows
    (its TRANSFER_PROPOSED), needing no further confirmation (the buyer's acceptance is it)."""

    TYPE = "COUNTER_OFFER_ACCEPTED"
    offer_id: str
    listing_id: str
    transfer_id: str


@event
class CounterOfferDeclined(DomainEvent):
    TYPE = "COUNTER_OFFER_DECLINED"
    offer_id: str
    listing_id: str


@event
class OfferDeclined(DomainEvent):
    TYPE = "OFFER_DECLINED"
    offer_id: str
    listing_id: str


@event
class OfferAccepted(DomainEvent):
    TYPE = "OFFER_ACCEPTED"
    offer_id: str
    listing_id: str
    transfer_id: str


@event
class TransferProposed(DomainEvent):
    """`use_of_proceeds` (BR-14, TB-25) only when the seller attested it;
    `awaiting_buyer` (PRODUCT.md 8.2) only for a negotiated transfer, which waits for the
    buyer: both keys are absent otherwise, as they always were."""

    TYPE = "TRANSFER_PROPOSED"
    transfer_id: str
    certificate_id: str
    program: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    offer_id: str | None
    agreement_ref: str | None
    ruleset: str
    use_of_proceeds: Sequence[str] | None = omitted(None)
    awaiting_buyer: bool = omitted(False)


@event
class TransferConfirmed(DomainEvent):
    """The buyer's consent; `checks` are the rules run again at confirmation."""

    TYPE = "TRANSFER_CONFIRMED"
    transfer_id: str
    buyer_party_id: str
    checks: Sequence[JsonObject]


@event
class TransferApproved(DomainEvent):
    """`listing_id` and `listing_status` are null for a negotiated transfer;
    `seller_tax_periods` are the seller's periods (or UTH tranches) afterwards."""

    TYPE = "TRANSFER_APPROVED"
    transfer_id: str
    certificate_id: str
    amount_cents: int
    consideration_cents: int
    buyer_certificate_id: str
    exchange_date: IsoDate
    hq_window_end: IsoDate | None
    checks: Sequence[JsonObject]
    seller_status: str
    seller_tax_periods: Sequence[Any]
    listing_id: str | None
    listing_status: str | None


@event
class TransferDeclined(DomainEvent):
    TYPE = "TRANSFER_DECLINED"
    transfer_id: str
    buyer_party_id: str
    reasons: Sequence[str]


@event
class TransferRejected(DomainEvent):
    TYPE = "TRANSFER_REJECTED"
    transfer_id: str
    reasons: Sequence[str]
    checks: Sequence[JsonObject]
