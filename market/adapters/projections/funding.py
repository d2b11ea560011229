"""The closing record of a transfer (PRODUCT.md 8.3): the buyer's payment, the seller's
confirmation of receipt and, when the transfer is rejected, the refund owed."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store


@handles("TRANSFER_PAYMENT_RECORDED")
def payment_recorded(store: Store, event: Event) -> None:
    """Payload: transfer_id, buyer_party_id, seller_party_id, reference, amount_cents,
    paid_on."""
    p = event.payload
    store.insert(
        "transfer_fundings",
        {
            "transfer_id": p["transfer_id"],
            "buyer_party_id": p["buyer_party_id"],
            "seller_party_id": p["seller_party_id"],
            "reference": p["reference"],
            "amount_cents": p["amount_cents"],
            "paid_on": p["paid_on"],
            "recorded_seq": event.seq,
            "confirmed_on": None,
            "confirmed_seq": None,
            "refund_owed_cents": 0,
        },
    )


@handles("TRANSFER_RECEIPT_CONFIRMED")
def receipt_confirmed(store: Store, event: Event) -> None:
    """Payload: transfer_id, confirmed_on, amount_cents."""
    p = event.payload
    store.update(
        "transfer_fundings",
        p["transfer_id"],
        {"confirmed_on": p["confirmed_on"], "confirmed_seq": event.seq},
    )


@handles("TRANSFER_REFUND_OWED")
def refund_owed(store: Store, event: Event) -> None:
    """Payload: transfer_id, refund_owed_cents, buyer_party_id, seller_party_id."""
    p = event.payload
    store.update(
        "transfer_fundings", p["transfer_id"], {"refund_owed_cents": p["refund_owed_cents"]}
    )
