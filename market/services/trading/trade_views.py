"""Reads of listings, offers and transfers shared by the trading use cases, through the
repositories (a unit of work's, or a read connection's: market.services.kernel.reads)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

from market.domain.rules import offer_terms
from market.services.kernel import clock, reads
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.errors import not_found
from market.services.kernel.reads import Source
from market.services.kernel.uow import AbstractUnitOfWork


def load_listing(source: Source, listing_id: str) -> dict[str, Any]:
    return reads.listing(source, listing_id)


def sold_from_listing(source: Source, listing_id: str) -> int:
    """Cents sold from the listing: its accepted offers' approved transfers."""
    return reads.repositories(source).listings.sold_cents(listing_id)


def load_offer(source: Source, offer_id: str) -> dict[str, Any]:
    return reads.offer(source, offer_id)


def day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def standing_expiry(offer: dict[str, Any]) -> date | None:
    """The last day of the terms waiting for an answer: the seller's counter's once
    countered, else the buyer's offer's (issue 28 item 3)."""
    if offer["status"] == "countered":
        return day(offer.get("counter_expires_on"))
    return day(offer.get("expires_on"))


def offer_state(offer: dict[str, Any], today: date | None = None) -> dict[str, Any]:
    """The offer as read now: an open or countered offer past its last day reads
    `expired` (a state of the clock, not an event; accepting it is refused the same way)."""
    waiting = offer["status"] in ("open", "countered")
    expired = waiting and offer_terms.is_expired(standing_expiry(offer), today or clock.today())
    counter = offer.get("counter_price_cents")
    return offer | {
        "expired": expired,
        "status": "expired" if expired else offer["status"],
        "counter_price_per_dollar": None
        if counter is None
        else str(Fraction(int(counter), int(offer["counter_amount_cents"]))),
    }


def offer_view(source: Source, offer_id: str) -> dict[str, Any]:
    offer = offer_state(load_offer(source, offer_id))
    offer["price_per_dollar"] = str(Fraction(int(offer["price_cents"]), int(offer["amount_cents"])))
    if offer["transfer_id"]:
        offer["transfer"] = transfer_view(source, offer["transfer_id"])
    return offer


def load_transfer(source: Source, transfer_id: str) -> dict[str, Any]:
    return reads.transfer(source, transfer_id)


def load_transfer_for(source: Source, actor: Actor, transfer_id: str) -> dict[str, Any]:
    """The transfer, for an actor about to act on it: a participant that is neither its
    seller nor its buyer is told it does not exist, as for an unknown id (no existence
    oracle); what either side may do is each action's own check."""
    t = load_transfer(source, transfer_id)
    if actor.role == PARTICIPANT and actor.party_id not in (
        t["seller_party_id"],
        t["buyer_party_id"],
    ):
        raise not_found("Transfer", "transfer_id", transfer_id)
    return t


def transfer_view(source: Source, transfer_id: str) -> dict[str, Any]:
    return view_of_transfer(load_transfer(source, transfer_id))


def view_of_transfer(t: dict[str, Any]) -> dict[str, Any]:
    ratio = Fraction(int(t["consideration_cents"]), int(t["amount_cents"]))
    return t | {"price_per_dollar": str(ratio)}


def held_transfer_view(uow: AbstractUnitOfWork, transfer_id: str) -> dict[str, Any]:
    """The transfer as this unit of work left it (it wrote or locked the row: the store
    answers from its copy)."""
    return transfer_view(uow, transfer_id)
