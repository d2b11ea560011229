"""A party's deals: its offers and purchases (buyer), its sales (seller), each with the
status it has come to and its timeline; single offers and credit applications."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection, RowMapping

from market.adapters.repositories.trading_models import transfer_row
from market.adapters.tables import CreditApplication, Offer, Transfer
from market.services.certificates.returns import (
    CreditApplicationRecord,
    credit_application_record,
)
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import ForbiddenError, NotFoundError
from market.services.kernel.paging import split_page
from market.services.queries import deal_views
from market.services.queries.deal_views import TimelineFields
from market.services.queries.timelines import TimelineStep
from market.services.trading.trade_views import offer_view, view_of_transfer

offers_t = Offer.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
credit_t = CreditApplication.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class DealLine:
    """A deal in one row (the API's DealOut, the deals page): an offer and what became of
    it, or a negotiated transfer; `offer` and `transfer` are their detail bodies."""

    kind: str  # "offer" or "transfer"
    offer: dict[str, Any] | None
    transfer: dict[str, Any] | None
    id: str
    certificate_id: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    price_cents: int
    status: str  # the transfer's once there is one
    reason: str | None  # the latest step's
    next_step: str
    timeline: list[TimelineStep]


class CreditLimits(TypedDict, total=False):
    """What bounded a credit applied to a return (older events lack the later keys)."""

    declared_other_credits_cents: int
    ledger_other_credits_cents: int
    cap40_cents: int | None
    carryover_last_year: int | None
    creditable_activity_ids: list[str]  # PT-1: what the duplicate-use check compared
    pt1_activity_scope: str
    uth_withheld_cents: dict[str, int]


class CreditApplicationDetail(CreditApplicationRecord, TimelineFields):
    """A credit applied to a return (its row) with its life."""


def _may_read(actor: Actor, *party_ids: str) -> bool:
    return actor.role in (AUTHORITY, AUDITOR) or actor.party_id in party_ids


def get_offer(conn: Connection, actor: Actor, offer_id: str) -> dict[str, Any]:
    row = conn.execute(select(offers_t).where(offers_t.c.id == offer_id)).mappings().first()
    # Another party's offer answers as one that does not exist (no existence oracle).
    if row is None or not _may_read(actor, row["seller_party_id"], row["buyer_party_id"]):
        raise NotFoundError(f"Offer {offer_id} does not exist.", {"offer_id": offer_id})
    return deal_views.offer_detail(conn, dict(offer_view(conn, offer_id)))


def get_credit_application(
    conn: Connection, actor: Actor, application_id: str
) -> CreditApplicationDetail:
    row = conn.execute(select(credit_t).where(credit_t.c.id == application_id)).mappings().first()
    if row is None or not _may_read(actor, row["party_id"]):
        raise NotFoundError(
            f"Credit application {application_id} does not exist.",
            {"application_id": application_id},
        )
    return _credit_detail(row, deal_views.credit_fields(conn, row["id"], row["certificate_id"]))


def _credit_detail(row: RowMapping, life: TimelineFields) -> CreditApplicationDetail:
    detail: CreditApplicationDetail = {**credit_application_record(dict(row)), **life}
    return detail


def my_deals(
    conn: Connection, actor: Actor, side: str, after: int | None, limit: int
) -> tuple[list[DealLine], int | None]:
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


def _deal(conn: Connection, kind: str, key: str) -> DealLine:
    if kind == "offer":
        offer = deal_views.offer_detail(conn, dict(offer_view(conn, key)))
        return _line("offer", offer, offer.get("transfer"))
    row = conn.execute(select(transfers_t).where(transfers_t.c.id == key)).mappings().one()
    life = deal_views.transfer_fields(conn, key)
    return _line("transfer", None, {**view_of_transfer(transfer_row(dict(row))), **life})


def _line(kind: str, offer: dict[str, Any] | None, transfer: dict[str, Any] | None) -> DealLine:
    """The deal in one row: the offer's timeline runs on into its transfer's."""
    lead = offer if offer is not None else transfer
    assert lead is not None
    line: list[TimelineStep] = lead["timeline"]
    base = transfer or lead
    return DealLine(
        kind=kind,
        offer=offer,
        transfer=transfer,
        id=lead["id"],
        certificate_id=base["certificate_id"],
        seller_party_id=base["seller_party_id"],
        buyer_party_id=base["buyer_party_id"],
        amount_cents=base["amount_cents"],
        price_cents=lead["price_cents"] if offer is not None else base["consideration_cents"],
        status=transfer["status"] if transfer else lead["status"],
        reason=line[-1].get("reason") if line else None,
        next_step=lead["next_step"],
        timeline=line,
    )
