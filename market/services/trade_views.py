"""Reads of listings, offers and transfers shared by the trading use cases."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection

from market.adapters.queries import Query
from market.adapters.tables import Listing, Offer, Transfer
from market.services.errors import NotFoundError
from market.services.uow import UnitOfWork

listings_t = Listing.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]


# Built once (market.adapters.queries): read on every trade.
_LISTING = Query(select(listings_t).where(listings_t.c.id == bindparam("key")))
_OFFER = Query(select(offers_t).where(offers_t.c.id == bindparam("key")))
_TRANSFER = Query(select(transfers_t).where(transfers_t.c.id == bindparam("key")))


def load_listing(conn: Connection, listing_id: str) -> dict[str, Any]:
    row = _LISTING.first(conn, {"key": listing_id})
    if row is None:
        raise NotFoundError(f"Listing {listing_id} does not exist.", {"listing_id": listing_id})
    return row


def sold_from_listing(conn: Connection, listing_id: str) -> int:
    found = conn.execute(
        select(func.coalesce(func.sum(transfers_t.c.amount_cents), 0))
        .select_from(transfers_t.join(offers_t, offers_t.c.transfer_id == transfers_t.c.id))
        .where(offers_t.c.listing_id == listing_id, transfers_t.c.status == "approved")
    ).scalar()
    return int(found or 0)


def load_offer(conn: Connection, offer_id: str) -> dict[str, Any]:
    row = _OFFER.first(conn, {"key": offer_id})
    if row is None:
        raise NotFoundError(f"Offer {offer_id} does not exist.", {"offer_id": offer_id})
    return row


def offer_view(conn: Connection, offer_id: str) -> dict[str, Any]:
    offer = load_offer(conn, offer_id)
    offer["price_per_dollar"] = str(Fraction(int(offer["price_cents"]), int(offer["amount_cents"])))
    if offer["transfer_id"]:
        offer["transfer"] = transfer_view(conn, offer["transfer_id"])
    return offer


def load_transfer(conn: Connection, transfer_id: str) -> dict[str, Any]:
    row = _TRANSFER.first(conn, {"key": transfer_id})
    if row is None:
        raise NotFoundError(f"Transfer {transfer_id} does not exist.", {"transfer_id": transfer_id})
    return row


def transfer_view(conn: Connection, transfer_id: str) -> dict[str, Any]:
    return view_of_transfer(load_transfer(conn, transfer_id))


def view_of_transfer(t: dict[str, Any]) -> dict[str, Any]:
    ratio = Fraction(int(t["consideration_cents"]), int(t["amount_cents"]))
    return t | {"price_per_dollar": str(ratio)}


def held_transfer_view(uow: UnitOfWork, transfer_id: str) -> dict[str, Any]:
    """The transfer as this unit of work left it (it wrote or locked the row)."""
    row = uow.store.held("transfers", transfer_id)
    return transfer_view(uow.conn, transfer_id) if row is None else view_of_transfer(row)
