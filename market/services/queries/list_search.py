"""Search, sort and numbered pages for the market, the Authority's queue and the
transfers report, in SQL: only the rows of the page asked for are turned into views (each
view reads several tables), so a market of thousands of listings costs one page of work.
Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import ColumnElement, Numeric, Select, cast, or_, select
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate, Listing, Party, Transfer
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.paging import numbered_page
from market.services.queries.transfer_report import ListedTransfer, transfer_rows_by_id
from market.services.trading.listings import listing_view
from market.services.trading.trade_views import transfer_view

listings_t = Listing.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]

MAX_PER_PAGE = 100


@dataclass(frozen=True)
class ListQuery:
    """`q` matches a certificate number or a party's name (case-insensitive, anywhere);
    `sort` is one of the keys of the list's SORTS; `page` counts from 1."""

    q: str = ""
    program: str | None = None
    sort: str = "oldest"
    page: int = 1
    per_page: int = 25


T = TypeVar("T")
SortKeys = dict[str, tuple[ColumnElement[Any], ...]]  # a list's sorts: key -> SQL order


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    total: int
    page: int
    pages: int


def _page(
    conn: Connection, stmt: Select[Any], query: ListQuery, key: Any
) -> tuple[list[str], int, int, int]:
    per = max(1, min(query.per_page, MAX_PER_PAGE))
    rows, total, page, pages = numbered_page(conn, stmt, key, query.page, per)
    return [r["id"] for r in rows], total, page, pages


def _ratio(num: Any, den: Any) -> Any:
    # Ordering only: every figure shown is computed exactly from the integer cents.
    return cast(num, Numeric(30, 10)) / cast(den, Numeric(30, 10))


LISTING_SORTS = {
    "oldest": "Oldest first",
    "newest": "Newest first",
    "cheapest": "Lowest price per dollar",
    "largest": "Largest amount",
    "fiscal_year": "Fiscal year",
}


def search_listings(
    conn: Connection, query: ListQuery, ruleset: Ruleset
) -> Page[dict[str, Any]]:  # trading's listing views
    """Open listings; anyone signed in may browse the market."""
    ls, c, p = listings_t.c, certs_t.c, parties_t.c
    # Joined only when a filter or the sort needs the certificate or the seller: the
    # market's first page then counts and reads the listings' status index alone.
    joined: Any = listings_t
    if query.program or query.q.strip() or query.sort == "fiscal_year":
        joined = joined.join(certs_t, c.id == ls.certificate_id)
    if query.q.strip():
        joined = joined.join(parties_t, p.id == ls.seller_party_id)
    stmt = select(ls.id).select_from(joined).where(ls.status == "open")
    if query.program:
        stmt = stmt.where(c.program == query.program)
    if query.q.strip():
        q = query.q.strip()
        stmt = stmt.where(
            or_(c.number.icontains(q, autoescape=True), p.name.icontains(q, autoescape=True))
        )
    keys = {
        "oldest": (ls.created_seq,),
        "newest": (ls.created_seq.desc(),),
        "cheapest": (_ratio(ls.ask_cents, ls.amount_cents), ls.created_seq),
        "largest": (ls.amount_cents.desc(), ls.created_seq),
        "fiscal_year": (c.fiscal_year, ls.created_seq),
    }
    ids, total, page, pages = _page(conn, stmt, query, keys.get(query.sort, keys["oldest"]))
    return Page([dict(listing_view(conn, i, ruleset)) for i in ids], total, page, pages)


QUEUE_SORTS = {
    "oldest": "Waiting longest",
    "newest": "Newest first",
    "largest": "Largest amount",
    "lowest_price": "Lowest price per dollar",
}


def _transfers(query: ListQuery) -> tuple[Select[Any], SortKeys]:
    """Transfer ids filtered by program and by `q` (the seller's or the buyer's name, the
    certificate number: joined to both parties and the certificate); and the sort keys."""
    t, c = transfers_t.c, certs_t.c
    stmt = select(t.id)
    if query.program:
        stmt = stmt.where(t.program == query.program)
    if query.q.strip():
        # Joined only to search: without `q` the count and the page read the transfers
        # table (and its indexes) alone, which keeps them flat as the ledger grows.
        seller, buyer = parties_t.alias("seller"), parties_t.alias("buyer")
        stmt = stmt.select_from(
            transfers_t.join(certs_t, c.id == t.certificate_id)
            .join(seller, seller.c.id == t.seller_party_id)
            .join(buyer, buyer.c.id == t.buyer_party_id)
        )
        q = query.q.strip()
        searched = (c.number, seller.c.name, buyer.c.name)
        stmt = stmt.where(or_(*(col.icontains(q, autoescape=True) for col in searched)))
    price = _ratio(t.consideration_cents, t.amount_cents)
    keys = {
        "oldest": (t.created_seq,),
        "newest": (t.created_seq.desc(),),
        "largest": (t.amount_cents.desc(), t.created_seq),
        "lowest_price": (price, t.created_seq),
        "highest_price": (price.desc(), t.created_seq),
    }
    return stmt, keys


def search_queue(
    conn: Connection, actor: Actor, query: ListQuery
) -> Page[dict[str, Any]]:  # trading's transfer views
    """Transfers awaiting the Authority's approval; `q` matches the seller's or the
    buyer's name or the certificate number."""
    actor.require(AUTHORITY)
    stmt, keys = _transfers(query)
    stmt = stmt.where(transfers_t.c.status == "pending_approval")
    ids, total, page, pages = _page(conn, stmt, query, keys.get(query.sort, keys["oldest"]))
    return Page([dict(transfer_view(conn, i)) for i in ids], total, page, pages)


REPORT_SORTS = {
    "oldest": "Oldest first",
    "newest": "Newest first",
    "largest": "Largest amount",
    "lowest_price": "Lowest price per dollar",
    "highest_price": "Highest price per dollar",
}
REPORT_STATUSES = ("awaiting_buyer", "pending_approval", "approved", "rejected", "declined")


def search_report_transfers(
    conn: Connection, actor: Actor, query: ListQuery, status: str | None = None
) -> Page[ListedTransfer]:
    """Every transfer, in any status (or one), for the transfers report: its rows are the
    CSV's (transfer_report.transfer_rows_by_id), only the page asked for read."""
    actor.require(AUTHORITY, AUDITOR)
    stmt, keys = _transfers(query)
    if status in REPORT_STATUSES:
        stmt = stmt.where(transfers_t.c.status == status)
    ids, total, page, pages = _page(conn, stmt, query, keys.get(query.sort, keys["oldest"]))
    return Page(transfer_rows_by_id(conn, ids), total, page, pages)
