"""Exports: the transfers report (price paid and its ratio to face) and the event ledger,
as CSV (through defusedcsv, so no cell can start a spreadsheet formula) or JSON."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Any

from defusedcsv import csv
from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from market.adapters.eventstore import iter_events
from market.adapters.tables import EventRow, Party, Transfer
from market.services.actor import AUDITOR, AUTHORITY, Actor

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
EVENT_COLUMNS = (
    "seq",
    "stream",
    "version",
    "type",
    "payload",
    "actor",
    "recorded_at",
    "prev_hash",
    "hash",
)
FORMATS = ("csv", "json")


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


def transfer_rows(conn: Connection) -> list[dict[str, Any]]:
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
    rows = []
    for r in conn.execute(stmt).mappings():
        ratio = Fraction(int(r["consideration_cents"]), int(r["amount_cents"]))
        rows.append(
            {
                "transfer_id": r["id"],
                "program": r["program"],
                "certificate_id": r["certificate_id"],
                "seller_party_id": r["seller_party_id"],
                "seller_name": r["seller_name"],
                "buyer_party_id": r["buyer_party_id"],
                "buyer_name": r["buyer_name"],
                "amount_cents": int(r["amount_cents"]),
                "consideration_cents": int(r["consideration_cents"]),
                "ratio": ratio_text(int(r["consideration_cents"]), int(r["amount_cents"])),
                "ratio_fraction": f"{ratio.numerator}/{ratio.denominator}",
                "status": r["status"],
                "proposed_at": r["proposed_at"],
                "decided_at": r["decided_at"],
                "exchange_date": r["exchange_date"],
                "buyer_certificate_id": r["buyer_certificate_id"],
                "reasons": "; ".join(str(x) for x in (r["reasons"] or [])),
            }
        )
    return rows


def event_rows(conn: Connection) -> Iterator[dict[str, Any]]:
    for event in iter_events(conn):
        yield event.as_dict()


def to_csv(columns: Iterable[str], rows: Iterable[dict[str, Any]]) -> str:
    """CSV with formula-injection escaping on every cell (defusedcsv)."""
    out = io.StringIO()
    cols = list(columns)
    writer = csv.writer(out)
    writer.writerow(cols)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in cols])
    return out.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return value


def transfers_report_csv(conn: Connection, actor: Actor) -> str:
    actor.require(AUTHORITY, AUDITOR)
    return to_csv(TRANSFER_COLUMNS, transfer_rows(conn))


def export(conn: Connection, what: str, fmt: str) -> str:
    """`events` or `transfers` as `csv` or `json` (the CLI's export)."""
    columns: tuple[str, ...]
    if what == "events":
        columns, rows = EVENT_COLUMNS, list(event_rows(conn))
    elif what == "transfers":
        columns, rows = TRANSFER_COLUMNS, transfer_rows(conn)
    else:
        raise ValueError(f"unknown export {what!r}")
    if fmt == "json":
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        return to_csv(columns, rows)
    raise ValueError(f"unknown format {fmt!r}")
