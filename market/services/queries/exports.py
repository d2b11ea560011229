"""Exports: the transfers report (price paid and its ratio to face) and the event ledger,
as CSV or JSON.

Spreadsheet protection, one rule both exports of the transfers report share: a text cell
that a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a
carriage return, and is not a plain number) gets one apostrophe before it, which
spreadsheets show as "text"; nothing else in any cell changes. The JSON export of the
transfers report carries the same text, so the two agree cell for cell. The event
ledger's JSON is the ledger's own (its hashes cover it) and is never altered; its CSV
follows the rule."""

from __future__ import annotations

import csv
import io
import json
import re
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from market.adapters.eventstore import EVENT_COLUMNS, iter_events
from market.adapters.tables import EventRow, Party, Transfer
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.uow import ReadOnly

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
FORMATS = ("csv", "json")
BATCH = 1000  # rows per query and per chunk written: memory stays flat however many


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


def _transfer_row(r: Any) -> dict[str, Any]:
    ratio = Fraction(int(r["consideration_cents"]), int(r["amount_cents"]))
    return {
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


def transfer_rows(
    conn: Connection,
    after: int | None = None,
    limit: int | None = None,
    ids: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
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
    return [
        _transfer_row(r) | {"created_seq": int(r["created_seq"])}
        for r in conn.execute(stmt).mappings()
    ]


def transfer_rows_by_id(conn: Connection, ids: Sequence[str]) -> list[dict[str, Any]]:
    """The report's rows of these transfers, in the order of `ids` (a searched page)."""
    if not ids:
        return []
    rows = {r["transfer_id"]: r for r in transfer_rows(conn, ids=ids)}
    return [rows[i] for i in ids]


def iter_transfer_rows(conn: Connection, batch: int = BATCH) -> Iterator[dict[str, Any]]:
    """Every transfer row, `batch` at a time (keyset on `created_seq`)."""
    after: int | None = None
    while True:
        rows = transfer_rows(conn, after, batch)
        if rows:
            after = rows[-1]["created_seq"]
        yield from rows  # the caller may change the rows: the cursor is already taken
        if len(rows) < batch:
            return


def event_rows(conn: Connection) -> Iterator[dict[str, Any]]:
    for event in iter_events(conn):
        yield event.as_dict()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def spreadsheet_text(value: Any) -> Any:
    """The module's rule: an apostrophe before a text a spreadsheet would run."""
    starts = isinstance(value, str) and value.startswith(FORMULA_START)
    if starts and not PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def iter_csv(
    columns: Iterable[str], rows: Iterable[dict[str, Any]], batch: int = BATCH
) -> Iterator[str]:
    """CSV, every cell under the spreadsheet rule, in chunks of `batch` rows: the header
    first, then as the rows come."""
    out = io.StringIO()
    cols = list(columns)
    writer = csv.writer(out)
    writer.writerow(cols)
    for n, row in enumerate(rows, 1):
        writer.writerow([spreadsheet_text(_cell(row.get(c))) for c in cols])
        if n % batch == 0:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def to_csv(columns: Iterable[str], rows: Iterable[dict[str, Any]]) -> str:
    return "".join(iter_csv(columns, rows))


def iter_json(rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The text `json.dumps(list(rows), indent=2)` gives, one row at a time."""
    first = True
    for row in rows:
        body = textwrap.indent(json.dumps(row, indent=2, ensure_ascii=False), "  ")
        yield ("[\n" if first else ",\n") + body
        first = False
    yield "[]\n" if first else "\n]\n"


def _cell(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return value


def _report_rows(conn: Connection) -> Iterator[dict[str, Any]]:
    """The report's rows, under the spreadsheet rule in whatever format they go out."""
    for row in iter_transfer_rows(conn):
        row.pop("created_seq")
        yield {k: spreadsheet_text(v) for k, v in row.items()}


def transfers_report_csv(conn: Connection, actor: Actor) -> str:
    actor.require(AUTHORITY, AUDITOR)
    return to_csv(TRANSFER_COLUMNS, _report_rows(conn))


def stream_transfers_csv(engine: Engine, actor: Actor) -> Iterator[str]:
    """The transfers report as CSV chunks, read in batches on a connection of its own that
    lives as long as the response: a body that is never whole in memory. The role is
    checked now, before anything is sent."""
    actor.require(AUTHORITY, AUDITOR)

    def chunks() -> Iterator[str]:
        with ReadOnly(engine) as conn:
            yield from iter_csv(TRANSFER_COLUMNS, _report_rows(conn))

    return chunks()


def export_chunks(conn: Connection, what: str, fmt: str) -> Iterator[str]:
    """`events` or `transfers` as `csv` or `json` (the CLI's export), in chunks."""
    columns: tuple[str, ...]
    rows: Callable[[Connection], Iterator[dict[str, Any]]]
    if what == "events":
        columns, rows = EVENT_COLUMNS, event_rows
    elif what == "transfers":
        columns, rows = TRANSFER_COLUMNS, _report_rows
    else:
        raise ValueError(f"unknown export {what!r}")
    if fmt == "json":
        return iter_json(rows(conn))
    if fmt == "csv":
        return iter_csv(columns, rows(conn))
    raise ValueError(f"unknown format {fmt!r}")


def export(conn: Connection, what: str, fmt: str) -> str:
    return "".join(export_chunks(conn, what, fmt))
