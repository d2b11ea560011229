"""Trading: listings, offers and transfers (and what an approval does to the seller's
certificate). The buyer's certificate is created by the CERT_ISSUED that follows an
approval."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require
from market.domain.events.trading import (
    CounterOfferAccepted,
    CounterOfferDeclined,
    ListingCreated,
    ListingWithdrawn,
    OfferAccepted,
    OfferCountered,
    OfferDeclined,
    OfferMade,
    TransferApproved,
    TransferConfirmed,
    TransferDeclined,
    TransferProposed,
    TransferRejected,
)


@handles(ListingCreated)
def listing_created(store: Store, seq: int, e: ListingCreated) -> None:
    store.insert(
        "listings",
        {
            "id": e.listing_id,
            "certificate_id": e.certificate_id,
            "seller_party_id": e.seller_party_id,
            "amount_cents": e.amount_cents,
            "ask_cents": e.ask_cents,
            "status": "open",
            "created_seq": seq,
        },
    )


@handles(ListingWithdrawn)
def listing_withdrawn(store: Store, seq: int, e: ListingWithdrawn) -> None:
    store.update("listings", e.listing_id, {"status": "withdrawn"})


@handles(OfferMade)
def offer_made(store: Store, seq: int, e: OfferMade) -> None:
    store.insert(
        "offers",
        {
            "id": e.offer_id,
            "listing_id": e.listing_id,
            "certificate_id": e.certificate_id,
            "seller_party_id": e.seller_party_id,
            "buyer_party_id": e.buyer_party_id,
            "amount_cents": e.amount_cents,
            "price_cents": e.price_cents,
            "status": "open",
            "transfer_id": None,
            "created_seq": seq,
            "expires_on": e.expires_on,
            "counter_amount_cents": None,
            "counter_price_cents": None,
            "counter_expires_on": None,
        },
    )


@handles(OfferCountered)
def offer_countered(store: Store, seq: int, e: OfferCountered) -> None:
    store.update(
        "offers",
        e.offer_id,
        {
            "status": "countered",
            "counter_amount_cents": e.amount_cents,
            "counter_price_cents": e.price_cents,
            "counter_expires_on": e.expires_on,
        },
    )


@handles(CounterOfferAccepted)
def counter_accepted(store: Store, seq: int, e: CounterOfferAccepted) -> None:
    store.update("offers", e.offer_id, {"status": "accepted", "transfer_id": e.transfer_id})


@handles(CounterOfferDeclined)
def counter_declined(store: Store, seq: int, e: CounterOfferDeclined) -> None:
    store.update("offers", e.offer_id, {"status": "declined"})


@handles(OfferDeclined)
def offer_declined(store: Store, seq: int, e: OfferDeclined) -> None:
    store.update("offers", e.offer_id, {"status": "declined"})


@handles(OfferAccepted)
def offer_accepted(store: Store, seq: int, e: OfferAccepted) -> None:
    store.update("offers", e.offer_id, {"status": "accepted", "transfer_id": e.transfer_id})


@handles(TransferProposed)
def transfer_proposed(store: Store, seq: int, e: TransferProposed) -> None:
    """A negotiated transfer the buyer has to confirm (PRODUCT.md 8.2) waits for it."""
    store.insert(
        "transfers",
        {
            "id": e.transfer_id,
            "certificate_id": e.certificate_id,
            "program": e.program,
            "seller_party_id": e.seller_party_id,
            "buyer_party_id": e.buyer_party_id,
            "amount_cents": e.amount_cents,
            "consideration_cents": e.consideration_cents,
            "status": "awaiting_buyer" if e.awaiting_buyer else "pending_approval",
            "buyer_certificate_id": None,
            "offer_id": e.offer_id,
            "agreement_ref": e.agreement_ref,
            "use_of_proceeds": None if e.use_of_proceeds is None else list(e.use_of_proceeds),
            "reasons": [],
            "checks": [],
            "exchange_date": None,
            "hq_window_end": None,
            "ruleset": e.ruleset,
            "created_seq": seq,
            "decided_seq": None,
            "confirmed_seq": None,
        },
    )


@handles(TransferConfirmed)
def transfer_confirmed(store: Store, seq: int, e: TransferConfirmed) -> None:
    store.update(
        "transfers",
        e.transfer_id,
        {"status": "pending_approval", "confirmed_seq": seq, "checks": list(e.checks)},
    )


@handles(TransferApproved)
def transfer_approved(store: Store, seq: int, e: TransferApproved) -> None:
    cert = require(store, "certificates", e.certificate_id)
    store.update(
        "certificates",
        e.certificate_id,
        {
            "balance_cents": cert["balance_cents"] - e.amount_cents,
            "transferred_cents": cert["transferred_cents"] + e.amount_cents,
            "status": e.seller_status,
            "tax_periods": list(e.seller_tax_periods),
        },
    )
    store.update(
        "transfers",
        e.transfer_id,
        {
            "status": "approved",
            "buyer_certificate_id": e.buyer_certificate_id,
            "exchange_date": e.exchange_date,
            "hq_window_end": e.hq_window_end,
            "checks": list(e.checks),
            "decided_seq": seq,
        },
    )
    if e.listing_id and e.listing_status:
        store.update("listings", e.listing_id, {"status": e.listing_status})


@handles(TransferDeclined)
def transfer_declined(store: Store, seq: int, e: TransferDeclined) -> None:
    """The buyer's reasons, possibly none."""
    store.update(
        "transfers",
        e.transfer_id,
        {"status": "declined", "reasons": list(e.reasons), "decided_seq": seq},
    )


@handles(TransferRejected)
def transfer_rejected(store: Store, seq: int, e: TransferRejected) -> None:
    store.update(
        "transfers",
        e.transfer_id,
        {
            "status": "rejected",
            "reasons": list(e.reasons),
            "checks": list(e.checks),
            "decided_seq": seq,
        },
    )
