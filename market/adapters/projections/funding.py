"""The closing record of a transfer (PRODUCT.md 8.3): the buyer's payment, the seller's
confirmation of receipt and, when the transfer is rejected, the refund owed."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.funding import (
    TransferPaymentRecorded,
    TransferReceiptConfirmed,
    TransferRefundOwed,
)


@handles(TransferPaymentRecorded)
def payment_recorded(store: Store, seq: int, e: TransferPaymentRecorded) -> None:
    store.insert(
        "transfer_fundings",
        {
            "transfer_id": e.transfer_id,
            "buyer_party_id": e.buyer_party_id,
            "seller_party_id": e.seller_party_id,
            "reference": e.reference,
            "amount_cents": e.amount_cents,
            "paid_on": e.paid_on,
            "recorded_seq": seq,
            "confirmed_on": None,
            "confirmed_seq": None,
            "refund_owed_cents": 0,
        },
    )


@handles(TransferReceiptConfirmed)
def receipt_confirmed(store: Store, seq: int, e: TransferReceiptConfirmed) -> None:
    store.update(
        "transfer_fundings", e.transfer_id, {"confirmed_on": e.confirmed_on, "confirmed_seq": seq}
    )


@handles(TransferRefundOwed)
def refund_owed(store: Store, seq: int, e: TransferRefundOwed) -> None:
    store.update("transfer_fundings", e.transfer_id, {"refund_owed_cents": e.refund_owed_cents})
