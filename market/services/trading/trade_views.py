"""Reads of listings, offers and transfers shared by the trading use cases, through the
repositories (a unit of work's, or a read connection's: market.services.kernel.reads):
the aggregates the rules read, and the views the API and the pages show."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from market.adapters.repositories.trading_models import (
    OfferRow,
    TransferRow,
    offer_row,
    transfer_row,
)
from market.domain.model import Listing, Offer, Transfer
from market.domain.rules import offer_terms
from market.services.kernel import clock, reads
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.errors import not_found
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork


class TransferView(TransferRow):
    price_per_dollar: str


class OfferState(OfferRow):
    """The offer as read now (`status` reads `expired` past its last day)."""

    expired: bool
    counter_price_per_dollar: str | None


class OfferView(OfferState):
    price_per_dollar: str


class AcceptedOfferView(OfferView):
    """An accepted offer shows the transfer it proposed."""

    transfer: TransferView


def load_listing(source: Source, listing_id: str) -> Listing:
    listing = repositories(source).listings.load(listing_id)
    if listing is None:
        raise not_found("Listing", "listing_id", listing_id)
    return listing


def sold_from_listing(source: Source, listing_id: str) -> int:
    """Cents sold from the listing: its accepted offers' approved transfers."""
    return repositories(source).listings.sold_cents(listing_id)


def load_offer(source: Source, offer_id: str) -> Offer:
    offer = repositories(source).offers.load(offer_id)
    if offer is None:
        raise not_found("Offer", "offer_id", offer_id)
    return offer


def day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


def standing_expiry(offer: OfferRow) -> date | None:
    """The last day of the terms waiting for an answer: the seller's counter's once
    countered, else the buyer's offer's (issue 28 item 3)."""
    if offer["status"] == "countered":
        return day(offer.get("counter_expires_on"))
    return day(offer.get("expires_on"))


def offer_state(offer: OfferRow, today: date | None = None) -> OfferState:
    """The offer as read now: an open or countered offer past its last day reads
    `expired` (a state of the clock, not an event; accepting it is refused the same way)."""
    waiting = offer["status"] in ("open", "countered")
    expired = waiting and offer_terms.is_expired(standing_expiry(offer), today or clock.today())
    counter, counter_amount = offer.get("counter_price_cents"), offer.get("counter_amount_cents")
    return {
        **offer,
        "expired": expired,
        "status": "expired" if expired else offer["status"],
        "counter_price_per_dollar": None
        if counter is None or counter_amount is None
        else str(Fraction(counter, counter_amount)),
    }


def offer_view(source: Source, offer_id: str) -> OfferView:
    row = reads.offer(source, offer_id)
    offer = offer_state(offer_row(row))
    price = str(Fraction(offer["price_cents"], offer["amount_cents"]))
    if offer["transfer_id"]:
        transfer = transfer_view(source, offer["transfer_id"])
        return AcceptedOfferView(**offer, price_per_dollar=price, transfer=transfer)
    return OfferView(**offer, price_per_dollar=price)


def load_transfer(source: Source, transfer_id: str) -> TransferRow:
    return transfer_row(reads.transfer(source, transfer_id))


def load_transfer_for(source: Source, actor: Actor, transfer_id: str) -> Transfer:
    """The transfer, for an actor about to act on it: a participant that is neither its
    seller nor its buyer is told it does not exist, as for an unknown id (no existence
    oracle); what either side may do is each action's own check."""
    t = repositories(source).transfers.load(transfer_id)
    if t is None:
        raise not_found("Transfer", "transfer_id", transfer_id)
    if actor.role == PARTICIPANT and actor.party_id not in (t.seller_party_id, t.buyer_party_id):
        raise not_found("Transfer", "transfer_id", transfer_id)
    return t


def transfer_view(source: Source, transfer_id: str) -> TransferView:
    return view_of_transfer(load_transfer(source, transfer_id))


def view_of_transfer(t: TransferRow) -> TransferView:
    ratio = Fraction(t["consideration_cents"], t["amount_cents"])
    return {**t, "price_per_dollar": str(ratio)}


def held_transfer_view(uow: AbstractUnitOfWork, transfer_id: str) -> TransferView:
    """The transfer as this unit of work left it (it wrote or locked the row: the store
    answers from its copy)."""
    return transfer_view(uow, transfer_id)
