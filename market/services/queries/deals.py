"""A party's deals: its offers and purchases (buyer), its sales (seller), each with the
status it has come to and its timeline; single offers and credit applications."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.repositories.trading_models import transfer_row
from market.adapters.tables import CreditApplication, Offer, Transfer
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import ForbiddenError, NotFoundError
from market.services.kernel.paging import split_page
from market.services.queries import deal_views
from market.services.trading.trade_views import offer_view, view_of_transfer

offers_t = Offer.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
credit_t = CreditApplication.__table__  # type: ignore[attr-defined]


def _may_read(actor: Actor, *party_ids: str) -> bool:
    return actor.role in (AUTHORITY, AUDITOR) or actor.party_id in party_ids


def get_offer(conn: Connection, actor: Actor, offer_id: str) -> dict[str, Any]:
    row = conn.execute(select(offers_t).where(offers_t.c.id == offer_id)).mappings().first()
    # Another party's offer answers as one that does not exist (no existence oracle).
    if row is None or not _may_read(actor, row["seller_party_id"], row["buyer_party_id"]):
        raise NotFoundError(f"Offer {offer_id} does not exist.", {"offer_id": offer_id})
    return deal_views.offer_detail(conn, dict(offer_view(conn, offer_id)))


def get_credit_application(conn: Connection, actor: Actor, application_id: str) -> dict[str, Any]:
    row = conn.execute(select(credit_t).where(credit_t.c.id == application_id)).mappings().first()
    if row is None or not _may_read(actor, row["party_id"]):
        raise NotFoundError(
            f"Credit application {application_id} does not exist.",
            {"application_id": application_id},
        )
    return deal_views.credit_detail(conn, dict(row))


def my_deals(
    conn: Connection, actor: Actor, side: str, after: int | None, limit: int
) -> tuple[list[dict[str, Any]], int | None]:
    """A participant's deals on one side, newest first: its offers (and what became of
    them) and its negotiated transfers. `next` is the seq to pass as `after`."""
    party = actor.party_id
    if party is None:
        raise ForbiddenError("Your user is not linked to a party.", {})
    col = "buyer_party_id" if side == "buyer" else "seller_party_id"
    offers = select(offers_t.c.id, offers_t.c.created_seq.label("seq"), offers_t.c.transfer_id)
    offers = offers.where(offers_t.c[col] == party)
    direct = select(transfers_t.c.id, transfers_t.c.created_seq.label("seq")).where(
        transfers_t.c[col] == party, transfers_t.c.offer_id.is_(None)
    )
    if after is not None:
        offers = offers.where(offers_t.c.created_seq < after)
        direct = direct.where(transfers_t.c.created_seq < after)
    # The newest limit + 1 of each kind (a walk down its party index): the page's rows
    # are among them, however many deals the party has made.
    offers = offers.order_by(offers_t.c.created_seq.desc()).limit(limit + 1)
    direct = direct.order_by(transfers_t.c.created_seq.desc()).limit(limit + 1)
    rows = [("offer", r.id, int(r.seq)) for r in conn.execute(offers)]
    rows += [("transfer", r.id, int(r.seq)) for r in conn.execute(direct)]
    rows.sort(key=lambda r: -r[2])
    kept, nxt = split_page(rows[: limit + 1], limit, lambda r: r[2])
    return [_deal(conn, kind, key) for kind, key, _ in kept], nxt


def _deal(conn: Connection, kind: str, key: str) -> dict[str, Any]:
    if kind == "offer":
        offer = deal_views.offer_detail(conn, dict(offer_view(conn, key)))
        transfer = offer.get("transfer")
        return {"kind": "offer", "offer": offer, "transfer": transfer} | _summary(offer, transfer)
    row = conn.execute(select(transfers_t).where(transfers_t.c.id == key)).mappings().one()
    transfer = deal_views.transfer_detail(conn, dict(view_of_transfer(transfer_row(dict(row)))))
    return {"kind": "transfer", "offer": None, "transfer": transfer} | _summary(None, transfer)


def _summary(offer: dict[str, Any] | None, transfer: dict[str, Any] | None) -> dict[str, Any]:
    """The deal in one row: the offer's timeline runs on into its transfer's."""
    lead = offer if offer is not None else transfer
    assert lead is not None
    line = lead["timeline"]
    base = transfer or lead
    return {
        "id": lead["id"],
        "certificate_id": base["certificate_id"],
        "seller_party_id": base["seller_party_id"],
        "buyer_party_id": base["buyer_party_id"],
        "amount_cents": base["amount_cents"],
        "price_cents": lead.get("price_cents", base.get("consideration_cents")),
        "status": transfer["status"] if transfer else lead["status"],
        "reason": line[-1].get("reason") if line else None,
        "next_step": lead["next_step"],
        "timeline": line,
    }
