"""Pages of transfers and listings in one query each (plus one aggregate), never a query
per row and never a scan of the whole table: each keyset page walks an index of
migration 0012 (status or party, then `created_seq`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlalchemy import func, select, union_all
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate, Listing, Offer, Transfer
from market.domain.programs import Program
from market.domain.rulesets import Ruleset
from market.domain.values import ceil_int
from market.services.kernel.paging import split_page
from market.services.trading.rule_checks import unreviewed_in_sale
from market.services.trading.trade_views import view_of_transfer

transfers_t = Transfer.__table__  # type: ignore[attr-defined]
listings_t = Listing.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]


def transfers_page(
    conn: Connection,
    status: str | None,
    after: int | None,
    limit: int,
    *,
    party: str | None = None,
    seller: str | None = None,
) -> tuple[list[dict[str, Any]], int | None]:
    """Transfers oldest first after `after` (a `created_seq`); `party` keeps those it sells
    or buys in (one index walk per side, merged), `seller` those it sells in."""
    t = transfers_t

    def side(column: Any, value: str) -> Any:
        stmt = select(t).where(column == value)
        if status:
            stmt = stmt.where(t.c.status == status)
        if after is not None:
            stmt = stmt.where(t.c.created_seq > after)
        return stmt.order_by(t.c.created_seq).limit(limit + 1)

    if party is not None:
        sides = [side(t.c.seller_party_id, party), side(t.c.buyer_party_id, party)]
        sub = union_all(*(select(s.subquery()) for s in sides)).subquery()
        stmt = select(sub).order_by(sub.c.created_seq).limit(limit + 1)
    elif seller is not None:
        stmt = side(t.c.seller_party_id, seller)
    else:
        stmt = select(t).order_by(t.c.created_seq).limit(limit + 1)
        if status:
            stmt = stmt.where(t.c.status == status)
        if after is not None:
            stmt = stmt.where(t.c.created_seq > after)
    rows = [dict(r) for r in conn.execute(stmt).mappings()]
    kept, nxt = split_page(rows, limit, lambda r: int(r["created_seq"]))
    return [view_of_transfer(r) for r in kept], nxt


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


def ask_for_what_remains(listing: dict[str, Any], available_cents: int) -> int:
    """The ask pro rata for what is left of the listing, rounded up to a whole cent, so it
    is never below the seller's own price per dollar (issue 28 item 3)."""
    return ceil_int(
        Fraction(int(listing["ask_cents"]) * available_cents, int(listing["amount_cents"]))
    )


def view_of_listing(
    listing: dict[str, Any], cert: dict[str, Any], sold: int, ruleset: Ruleset
) -> dict[str, Any]:
    """The listing as the market shows it, from its row, its certificate's and the cents
    sold from it (approved transfers of its accepted offers)."""
    program = Program(cert["program"])
    available = max(0, int(listing["amount_cents"]) - sold)
    # UTH-27 / AMB-18: what a purchase of the rest would take from unreviewed installments.
    conditional = unreviewed_in_sale(cert, min(available, int(cert["balance_cents"])))
    return listing | {
        "available_ask_cents": ask_for_what_remains(listing, available),
        "program": program.value,
        "fiscal_year": int(cert["fiscal_year"]),
        "certificate_number": cert["number"],
        "price_per_dollar": str(Fraction(int(listing["ask_cents"]), int(listing["amount_cents"]))),
        "floor_bps": ruleset.min_consideration(program) * 100,
        "sold_cents": sold,
        "available_cents": available,
        "conditional_cents": sum(cents for _, cents in conditional),
    }


def listings_page(
    conn: Connection,
    program: str | None,
    after: int | None,
    limit: int,
    ruleset: Ruleset,
    seller_party_id: str | None = None,
) -> tuple[list[dict[str, Any]], int | None]:
    """Open listings oldest first after `after` (a `created_seq`): the page, its
    certificates and what was sold from each, three queries whatever the page's size."""
    ls = listings_t
    stmt = select(ls).where(ls.c.status == "open").order_by(ls.c.created_seq).limit(limit + 1)
    if program:
        stmt = stmt.join(certs_t, certs_t.c.id == ls.c.certificate_id).where(
            certs_t.c.program == program
        )
    if seller_party_id is not None:
        stmt = stmt.where(ls.c.seller_party_id == seller_party_id)
    if after is not None:
        stmt = stmt.where(ls.c.created_seq > after)
    rows = [dict(r) for r in conn.execute(stmt).mappings()]
    kept, nxt = split_page(rows, limit, lambda r: int(r["created_seq"]))
    cert_ids = sorted({r["certificate_id"] for r in kept})
    certs = (
        {
            r["id"]: dict(r)
            for r in conn.execute(select(certs_t).where(certs_t.c.id.in_(cert_ids))).mappings()
        }
        if cert_ids
        else {}
    )
    sold = sold_from_listings(conn, [r["id"] for r in kept])
    views = [
        view_of_listing(r, certs[r["certificate_id"]], sold.get(r["id"], 0), ruleset) for r in kept
    ]
    return views, nxt
