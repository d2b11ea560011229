"""Trading halts (PRODUCT.md 8.3): notices on a certificate, the listings they suspend and
resume. The service decides which listings; the payload carries them."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store


@handles("CERTIFICATE_NOTICE_ISSUED")
def notice_issued(store: Store, event: Event) -> None:
    """Payload: notice_id, certificate_id, root_id, kind, reason, halted_certificate_ids,
    holder_party_ids, suspended_listing_ids."""
    p = event.payload
    store.insert(
        "certificate_notices",
        {
            "id": p["notice_id"],
            "certificate_id": p["certificate_id"],
            "root_id": p["root_id"],
            "kind": p["kind"],
            "reason": p["reason"],
            "status": "active",
            "halted_certificate_ids": list(p["halted_certificate_ids"]),
            "suspended_listing_ids": list(p["suspended_listing_ids"]),
            "resumed_listing_ids": [],
            "lift_reason": None,
            "issued_seq": event.seq,
            "lifted_seq": None,
        },
    )
    for listing_id in p["suspended_listing_ids"]:
        store.update("listings", listing_id, {"status": "suspended"})


@handles("CERTIFICATE_NOTICE_LIFTED")
def notice_lifted(store: Store, event: Event) -> None:
    """Payload: notice_id, certificate_id, reason, resumed_listing_ids, holder_party_ids."""
    p = event.payload
    store.update(
        "certificate_notices",
        p["notice_id"],
        {
            "status": "lifted",
            "lift_reason": p["reason"],
            "resumed_listing_ids": list(p["resumed_listing_ids"]),
            "lifted_seq": event.seq,
        },
    )
    for listing_id in p["resumed_listing_ids"]:
        store.update("listings", listing_id, {"status": "open"})
