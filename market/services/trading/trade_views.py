"""Reads of listings, offers and transfers shared by the trading use cases, through the
repositories (a unit of work's, or a read connection's: market.services.kernel.reads)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from market.services.kernel import reads
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


def offer_view(source: Source, offer_id: str) -> dict[str, Any]:
    offer = load_offer(source, offer_id)
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
