"""Listings and transfers as pages (keyset on `created_seq`, an index of migration 0012
each), what was sold from listings, and the approved trades the price tape buckets."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, union_all
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from market.adapters.repositories.models import certificate_of
from market.adapters.repositories.trading_models import (
    ApprovedTrade,
    ListingRow,
    TransferRow,
    listing_row,
    transfer_row,
)
from market.adapters.tables import Certificate, Listing, Offer, Transfer
from market.domain import model

transfers_t = Transfer.__table__  # type: ignore[attr-defined]
listings_t = Listing.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]


def transfer_rows(
    conn: Connection,
    status: str | None,
    after: int | None,
    limit: int,
    side: tuple[str, str] | None = None,
) -> list[TransferRow]:
    """Up to `limit` transfers oldest first after `after` (a `created_seq`). `side`:
    ("party", id) keeps those it sells or buys in (one index walk per side, merged),
    ("seller", id) those it sells in."""
    t = transfers_t

    def walk(column: Any, value: str) -> Any:
        stmt = select(t).where(column == value)
        if status:
            stmt = stmt.where(t.c.status == status)
        if after is not None:
            stmt = stmt.where(t.c.created_seq > after)
        return stmt.order_by(t.c.created_seq).limit(limit)

    if side is not None and side[0] == "party":
        sides = [walk(t.c.seller_party_id, side[1]), walk(t.c.buyer_party_id, side[1])]
        sub = union_all(*(select(s.subquery()) for s in sides)).subquery()
        stmt = select(sub).order_by(sub.c.created_seq).limit(limit)
    elif side is not None:
        stmt = walk(t.c.seller_party_id, side[1])
    else:
        stmt = select(t).order_by(t.c.created_seq).limit(limit)
        if status:
            stmt = stmt.where(t.c.status == status)
        if after is not None:
            stmt = stmt.where(t.c.created_seq > after)
    return [transfer_row(dict(r)) for r in conn.execute(stmt).mappings()]


def sold_from_listings(conn: Connection, listing_ids: list[str]) -> dict[str, int]:
    """Cents sold from each listing (approved transfers of its accepted offers)."""
    if not listing_ids:
        return {}
    rows = conn.execute(
        select(offers_t.c.listing_id, func.sum(transfers_t.c.amount_cents))
        .select_from(transfers_t.join(offers_t, offers_t.c.transfer_id == transfers_t.c.id))
        .where(offers_t.c.listing_id.in_(listing_ids), transfers_t.c.status == "approved")
        .group_by(offers_t.c.listing_id)
    ).all()
    return {r[0]: int(r[1] or 0) for r in rows}


def open_listing_rows(
    conn: Connection,
    program: str | None,
    after: int | None,
    limit: int,
    seller_party_id: str | None = None,
) -> list[ListingRow]:
    """Up to `limit` open listings oldest first after `after` (a `created_seq`)."""
    ls = listings_t
    stmt = select(ls).where(ls.c.status == "open").order_by(ls.c.created_seq).limit(limit)
    if program:
        stmt = stmt.join(certs_t, certs_t.c.id == ls.c.certificate_id).where(
            certs_t.c.program == program
        )
    if seller_party_id is not None:
        stmt = stmt.where(ls.c.seller_party_id == seller_party_id)
    if after is not None:
        stmt = stmt.where(ls.c.created_seq > after)
    return [listing_row(dict(r)) for r in conn.execute(stmt).mappings()]


def certificates_by_id(conn: Connection, ids: list[str]) -> dict[str, model.Certificate]:
    """The certificates of these ids, in one query."""
    if not ids:
        return {}
    stmt = select(certs_t).where(certs_t.c.id.in_(ids))
    return {r["id"]: certificate_of(dict(r)) for r in conn.execute(stmt).mappings()}


def approved_trades(conn: Connection, program: str | None) -> list[ApprovedTrade]:
    """Every approved transfer with an exchange date: its program, the vintage (the fiscal
    year of the lineage's original certificate), date, seller and amounts."""
    seller_cert = aliased(certs_t)
    root = aliased(certs_t)
    stmt = (
        select(
            transfers_t.c.program,
            root.c.fiscal_year.label("vintage"),
            transfers_t.c.exchange_date,
            transfers_t.c.seller_party_id,
            transfers_t.c.amount_cents,
            transfers_t.c.consideration_cents,
        )
        .select_from(
            transfers_t.join(seller_cert, seller_cert.c.id == transfers_t.c.certificate_id).join(
                root, root.c.id == seller_cert.c.root_id
            )
        )
        .where(transfers_t.c.status == "approved", transfers_t.c.exchange_date.is_not(None))
    )
    if program:
        stmt = stmt.where(transfers_t.c.program == program)
    return [
        ApprovedTrade(
            program=r["program"],
            vintage=r["vintage"],
            exchange_date=r["exchange_date"],
            seller_party_id=r["seller_party_id"],
            amount_cents=r["amount_cents"],
            consideration_cents=r["consideration_cents"],
        )
        for r in conn.execute(stmt).mappings()
    ]
