"""The closing record of a transfer (PRODUCT.md 8.3), on the stream `funding-<transfer>`;
each event names both parties."""

from __future__ import annotations

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate


@event
class TransferPaymentRecorded(DomainEvent):
    TYPE = "TRANSFER_PAYMENT_RECORDED"
    transfer_id: str
    reference: str
    amount_cents: int
    paid_on: IsoDate
    buyer_party_id: str
    seller_party_id: str


@event
class TransferReceiptConfirmed(DomainEvent):
    TYPE = "TRANSFER_RECEIPT_CONFIRMED"
    transfer_id: str
    confirmed_on: IsoDate
    amount_cents: int
    buyer_party_id: str
    seller_party_id: str


@event
class TransferRefundOwed(DomainEvent):
    TYPE = "TRANSFER_REFUND_OWED"
    transfer_id: str
    refund_owed_cents: int
    buyer_party_id: str
    seller_party_id: str
