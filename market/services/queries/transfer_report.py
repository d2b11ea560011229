"""The transfers report's rows: each transfer with both parties' names, the price paid and
its ratio to face, and the proposal and decision times; read in the order proposed, a
batch at a time (the exports) or by id (a searched page of the report)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.orm import aliased

from market.adapters.tables import EventRow, Party, Transfer

transfers_t = Transfer.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
events_t = EventRow.__table__  # type: ignore[attr-defined]

RATIO_PLACES = 12
TRANSFER_COLUMNS = (
    "transfer_id",
    "program",
    "certificate_id",
    "seller_party_id",
    "seller_name",
    "buyer_party_id",
    "buyer_name",
    "amount_cents",
    "consideration_cents",
    "ratio",
    "ratio_fraction",
    "status",
    "proposed_at",
    "decided_at",
    "exchange_date",
    "buyer_certificate_id",
    "reasons",
)
BATCH = 1000  # rows per query: memory stays flat however many


def ratio_text(numerator: int, denominator: int) -> str:
    """consideration / face as a decimal: exact when it terminates, otherwise cut (never
    rounded up) at 12 places; `ratio_fraction` always carries the exact value."""
    if denominator == 0:
        return ""
    ratio = Fraction(numerator, denominator)
    d = ratio.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    places = RATIO_PLACES
    if d == 1:
        places = 0
        while (ratio * 10**places).denominator != 1:
            places += 1
    scaled = ratio.numerator * 10**places // ratio.denominator
    whole, frac = divmod(scaled, 10**places)
    return f"{whole}.{frac:0{places}d}" if places else str(whole)


class TransferReportRow(TypedDict):
    """A row of the transfers report (TRANSFER_COLUMNS, in that order)."""

    transfer_id: str
    program: str
    certificate_id: str
    seller_party_id: str
    seller_name: str
    buyer_party_id: str
    buyer_name: str
    amount_cents: int
    consideration_cents: int
    ratio: str
    ratio_fraction: str
    status: str
    proposed_at: str
    decided_at: str | None
    exchange_date: str | None
    buyer_certificate_id: str | None
    reasons: str


class ListedTransfer(TransferReportRow):
    created_seq: int  # the seq of its proposal: the report's order and its pages' cursor


def _transfer_row(r: RowMapping) -> ListedTransfer:
    amount: int = r["amount_cents"]
    consideration: int = r["consideration_cents"]
    ratio = Fraction(consideration, amount)
    return {
        "transfer_id": r["id"],
        "program": r["program"],
        "certificate_id": r["certificate_id"],
        "seller_party_id": r["seller_party_id"],
        "seller_name": r["seller_name"],
        "buyer_party_id": r["buyer_party_id"],
        "buyer_name": r["buyer_name"],
        "amount_cents": amount,
        "consideration_cents": consideration,
        "ratio": ratio_text(consideration, amount),
        "ratio_fraction": f"{ratio.numerator}/{ratio.denominator}",
        "status": r["status"],
        "proposed_at": r["proposed_at"],
        "decided_at": r["decided_at"],
        "exchange_date": r["exchange_date"],
        "buyer_certificate_id": r["buyer_certificate_id"],
        "reasons": "; ".join(str(x) for x in (r["reasons"] or [])),
        "created_seq": r["created_seq"],
    }


def transfer_rows(
    conn: Connection,
    after: int | None = None,
    limit: int | None = None,
    ids: Sequence[str] | None = None,
) -> list[ListedTransfer]:
    """Transfers in the order proposed, after the transfer proposed at seq `after` (or
    those of `ids`): the report's rows, with both parties' names and the proposal and
    decision times."""
    seller = aliased(parties_t)
    buyer = aliased(parties_t)
    proposed = aliased(events_t)
    decided = aliased(events_t)
    t = transfers_t
    stmt = (
        select(
            t,
            seller.c.name.label("seller_name"),
            buyer.c.name.label("buyer_name"),
            proposed.c.recorded_at.label("proposed_at"),
            decided.c.recorded_at.label("decided_at"),
        )
        .join(seller, seller.c.id == t.c.seller_party_id)
        .join(buyer, buyer.c.id == t.c.buyer_party_id)
        .join(proposed, proposed.c.seq == t.c.created_seq)
        .outerjoin(decided, decided.c.seq == t.c.decided_seq)
        .order_by(t.c.created_seq)
    )
    if after is not None:
        stmt = stmt.where(t.c.created_seq > after)
    if ids is not None:
        stmt = stmt.where(t.c.id.in_(list(ids)))
    if limit is not None:
        stmt = stmt.limit(limit)
    return [_transfer_row(r) for r in conn.execute(stmt).mappings()]


def transfer_rows_by_id(conn: Connection, ids: Sequence[str]) -> list[ListedTransfer]:
    """The report's rows of these transfers, in the order of `ids` (a searched page)."""
    if not ids:
        return []
    rows = {r["transfer_id"]: r for r in transfer_rows(conn, ids=ids)}
    return [rows[i] for i in ids]


def iter_transfer_rows(conn: Connection, batch: int = BATCH) -> Iterator[ListedTransfer]:
    """Every transfer row, `batch` at a time (keyset on `created_seq`)."""
    after: int | None = None
    while True:
        rows = transfer_rows(conn, after, batch)
        if rows:
            after = rows[-1]["created_seq"]
        yield from rows
        if len(rows) < batch:
            return
