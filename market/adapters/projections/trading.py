"""Trading: listings, offers and transfers (and what an approval does to the seller's
certificate). The buyer's certificate is created by the CERT_ISSUED that follows an
approval."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require


@handles("LISTING_CREATED")
def listing_created(store: Store, event: Event) -> None:
    p = event.payload
    store.insert(
        "listings",
        {
            "id": p["listing_id"],
            "certificate_id": p["certificate_id"],
            "seller_party_id": p["seller_party_id"],
            "amount_cents": p["amount_cents"],
            "ask_cents": p["ask_cents"],
            "status": "open",
            "created_seq": event.seq,
        },
    )


@handles("LISTING_WITHDRAWN")
def listing_withdrawn(store: Store, event: Event) -> None:
    store.update("listings", event.payload["listing_id"], {"status": "withdrawn"})


@handles("OFFER_MADE")
def offer_made(store: Store, event: Event) -> None:
    p = event.payload
    store.insert(
        "offers",
        {
            "id": p["offer_id"],
            "listing_id": p["listing_id"],
            "certificate_id": p["certificate_id"],
            "seller_party_id": p["seller_party_id"],
            "buyer_party_id": p["buyer_party_id"],
            "amount_cents": p["amount_cents"],
            "price_cents": p["price_cents"],
            "status": "open",
            "transfer_id": None,
            "created_seq": event.seq,
        },
    )


@handles("OFFER_DECLINED")
def offer_declined(store: Store, event: Event) -> None:
    store.update("offers", event.payload["offer_id"], {"status": "declined"})


@handles("OFFER_ACCEPTED")
def offer_accepted(store: Store, event: Event) -> None:
    p = event.payload
    store.update("offers", p["offer_id"], {"status": "accepted", "transfer_id": p["transfer_id"]})


@handles("TRANSFER_PROPOSED")
def transfer_proposed(store: Store, event: Event) -> None:
    """Payload: transfer_id, certificate_id, program, seller_party_id, buyer_party_id,
    amount_cents, consideration_cents, offer_id, agreement_ref, ruleset; use_of_proceeds
    (BR-14, TB-25) when the seller attested it; awaiting_buyer (PRODUCT.md 8.2) true for a
    negotiated transfer the buyer has to confirm (absent in ledgers written before it)."""
    p = event.payload
    store.insert(
        "transfers",
        {
            "id": p["transfer_id"],
            "certificate_id": p["certificate_id"],
            "program": p["program"],
            "seller_party_id": p["seller_party_id"],
            "buyer_party_id": p["buyer_party_id"],
            "amount_cents": p["amount_cents"],
            "consideration_cents": p["consideration_cents"],
            "status": "awaiting_buyer" if p.get("awaiting_buyer") else "pending_approval",
            "buyer_certificate_id": None,
            "offer_id": p.get("offer_id"),
            "agreement_ref": p.get("agreement_ref"),
            "use_of_proceeds": p.get("use_of_proceeds"),
            "reasons": [],
            "checks": [],
            "exchange_date": None,
            "hq_window_end": None,
            "ruleset": p["ruleset"],
            "created_seq": event.seq,
            "decided_seq": None,
            "confirmed_seq": None,
        },
    )


@handles("TRANSFER_CONFIRMED")
def transfer_confirmed(store: Store, event: Event) -> None:
    """Payload: transfer_id, buyer_party_id, checks (the rules re-run at confirmation)."""
    store.update(
        "transfers",
        event.payload["transfer_id"],
        {
            "status": "pending_approval",
            "confirmed_seq": event.seq,
            "checks": event.payload["checks"],
        },
    )


@handles("TRANSFER_APPROVED")
def transfer_approved(store: Store, event: Event) -> None:
    """Payload: transfer_id, certificate_id, amount_cents, buyer_certificate_id,
    exchange_date, hq_window_end, checks, seller_status, seller_tax_periods, listing_id,
    listing_status (the last two null for a negotiated transfer)."""
    p = event.payload
    cert = require(store, "certificates", p["certificate_id"])
    store.update(
        "certificates",
        p["certificate_id"],
        {
            "balance_cents": cert["balance_cents"] - p["amount_cents"],
            "transferred_cents": cert["transferred_cents"] + p["amount_cents"],
            "status": p["seller_status"],
            "tax_periods": p["seller_tax_periods"],
        },
    )
    store.update(
        "transfers",
        p["transfer_id"],
        {
            "status": "approved",
            "buyer_certificate_id": p["buyer_certificate_id"],
            "exchange_date": p["exchange_date"],
            "hq_window_end": p["hq_window_end"],
            "checks": p["checks"],
            "decided_seq": event.seq,
        },
    )
    if p.get("listing_id") and p.get("listing_status"):
        store.update("listings", p["listing_id"], {"status": p["listing_status"]})


@handles("TRANSFER_DECLINED")
def transfer_declined(store: Store, event: Event) -> None:
    """Payload: transfer_id, buyer_party_id, reasons (the buyer's, possibly none)."""
    p = event.payload
    store.update(
        "transfers",
        p["transfer_id"],
        {"status": "declined", "reasons": p["reasons"], "decided_seq": event.seq},
    )


@handles("TRANSFER_REJECTED")
def transfer_rejected(store: Store, event: Event) -> None:
    p = event.payload
    store.update(
        "transfers",
        p["transfer_id"],
        {
            "status": "rejected",
            "reasons": p["reasons"],
            "checks": p["checks"],
            "decided_seq": event.seq,
        },
    )
