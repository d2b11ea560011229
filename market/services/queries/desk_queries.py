"""What the seller's and buyer's desks read, each in time that does not grow with the
party's history: totals are SQL aggregates over an index, lists are keyset pages (the names
and numbers of the rows shown: market.services.kernel.lookups)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate, CreditApplication, Offer, Transfer
from market.services.kernel.paging import split_page

certs_t = Certificate.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
credit_apps_t = CreditApplication.__table__  # type: ignore[attr-defined]

PAGE = 50


def paid_summary(conn: Connection, seller_party_id: str) -> tuple[int, int]:
    """(cents received, number of approved sales): every approved sale, summed in SQL."""
    t = transfers_t
    row = conn.execute(
        select(func.coalesce(func.sum(t.c.consideration_cents), 0), func.count()).where(
            t.c.seller_party_id == seller_party_id, t.c.status == "approved"
        )
    ).one()
    return int(row[0] or 0), int(row[1] or 0)


def offers_page(
    conn: Connection, party_id: str, side: str, after: int | None = None, limit: int = PAGE
) -> tuple[list[dict[str, Any]], int | None]:
    """Offers where the party is the seller (`side="seller"`) or the buyer, newest first;
    the cursor is the `created_seq` to continue below."""
    column = offers_t.c.seller_party_id if side == "seller" else offers_t.c.buyer_party_id
    stmt = (
        select(offers_t)
        .where(column == party_id)
        .order_by(offers_t.c.created_seq.desc())
        .limit(limit + 1)
    )
    if after is not None:
        stmt = stmt.where(offers_t.c.created_seq < after)
    rows = [dict(r) for r in conn.execute(stmt).mappings()]
    return split_page(rows, limit, lambda r: int(r["created_seq"]))


def usable_certificates(conn: Connection, party_id: str, limit: int = 200) -> list[dict[str, Any]]:
    """The party's certificates with a usable balance, oldest first (a form's choices)."""
    c = certs_t
    stmt = (
        select(c.c.id, c.c.number, c.c.balance_cents, c.c.program, c.c.tax_types)
        .where(c.c.holder_party_id == party_id, c.c.balance_cents > 0)
        .order_by(c.c.issued_seq)
        .limit(limit)
    )
    return [dict(r) for r in conn.execute(stmt).mappings()]


def credit_applications_page(
    conn: Connection, party_id: str, limit: int = PAGE
) -> list[dict[str, Any]]:
    """The party's credit applications of the latest tax years, `limit` of them: one walk
    down the (party, tax year, id) index, however many the party has made."""
    ca = credit_apps_t
    stmt = (
        select(ca)
        .where(ca.c.party_id == party_id)
        .order_by(ca.c.tax_year.desc(), ca.c.id.desc())
        .limit(limit)
    )
    return [dict(r) for r in conn.execute(stmt).mappings()]


def holdings_page(
    conn: Connection, party_id: str, after: int | None = None, limit: int = PAGE
) -> tuple[list[dict[str, Any]], int | None]:
    """Certificates the party bought or received by pass-through, oldest first; the
    cursor is an `issued_seq`. Every holding is reachable, page by page."""
    c = certs_t
    stmt = (
        select(c)
        .where(c.c.holder_party_id == party_id, c.c.is_original.is_(False))
        .order_by(c.c.issued_seq)
        .limit(limit + 1)
    )
    if after is not None:
        stmt = stmt.where(c.c.issued_seq > after)
    rows = [dict(r) for r in conn.execute(stmt).mappings()]
    return split_page(rows, limit, lambda r: int(r["issued_seq"]))


def proposed_transfers(
    conn: Connection, seller_party_id: str, limit: int = 20
) -> list[dict[str, Any]]:
    """The seller's negotiated transfers still waiting for the buyer or declined by it,
    newest first (each status a walk down the seller's status index)."""
    t = transfers_t
    stmt = (
        select(t)
        .where(
            t.c.seller_party_id == seller_party_id,
            t.c.status.in_(("awaiting_buyer", "declined")),
            t.c.offer_id.is_(None),
        )
        .order_by(t.c.created_seq.desc())
        .limit(limit)
    )
    return [dict(r) for r in conn.execute(stmt).mappings()]


def applied_by_return(conn: Connection, party_id: str, limit: int = 20) -> list[dict[str, Any]]:
    """What the party has applied through this market to each return (tax type, tax
    year), the latest years first: the amounts a new application counts as other credits."""
    ca = credit_apps_t
    stmt = (
        select(
            ca.c.tax_type,
            ca.c.tax_year,
            func.sum(ca.c.applied_cents).label("applied_cents"),
            func.count().label("applications"),
        )
        .where(ca.c.party_id == party_id)
        .group_by(ca.c.tax_type, ca.c.tax_year)
        .order_by(ca.c.tax_year.desc(), ca.c.tax_type)
        .limit(limit)
    )
    return [
        dict(r) | {"applied_cents": int(r.applied_cents or 0)}
        for r in conn.execute(stmt).mappings()
    ]
