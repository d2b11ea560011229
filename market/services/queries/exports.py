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
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from market.adapters.eventstore import EVENT_COLUMNS, iter_events
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.uow import ReadOnly
from market.services.queries.transfer_report import (
    TRANSFER_COLUMNS,
    ListedTransfer,
    TransferReportRow,
    iter_transfer_rows,
)
from market.services.trust.checkpoint_views import EventShown, event_shown

ExportRow = TransferReportRow | EventShown
FORMATS = ("csv", "json")
BATCH = 1000  # rows per query and per chunk written: memory stays flat however many


def event_rows(conn: Connection) -> Iterator[EventShown]:
    for event in iter_events(conn):
        yield event_shown(event)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def spreadsheet_text(value: Any) -> Any:
    """The module's rule: an apostrophe before a text a spreadsheet would run."""
    return protected_text(value) if isinstance(value, str) else value


def protected_text(text: str) -> str:
    if text.startswith(FORMULA_START) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def _protected_or_none(text: str | None) -> str | None:
    return None if text is None else protected_text(text)


def iter_csv(
    columns: Iterable[str], rows: Iterable[ExportRow], batch: int = BATCH
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


def to_csv(columns: Iterable[str], rows: Iterable[ExportRow]) -> str:
    return "".join(iter_csv(columns, rows))


def iter_json(rows: Iterable[ExportRow]) -> Iterator[str]:
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


def _report_rows(conn: Connection) -> Iterator[TransferReportRow]:
    """The report's rows, under the spreadsheet rule in whatever format they go out."""
    for row in iter_transfer_rows(conn):
        yield _protected(row)


def _protected(row: ListedTransfer) -> TransferReportRow:
    """A report row with each text cell under the rule (numbers are never changed)."""
    text, maybe = protected_text, _protected_or_none
    return {
        "transfer_id": text(row["transfer_id"]),
        "program": text(row["program"]),
        "certificate_id": text(row["certificate_id"]),
        "seller_party_id": text(row["seller_party_id"]),
        "seller_name": text(row["seller_name"]),
        "buyer_party_id": text(row["buyer_party_id"]),
        "buyer_name": text(row["buyer_name"]),
        "amount_cents": row["amount_cents"],
        "consideration_cents": row["consideration_cents"],
        "ratio": text(row["ratio"]),
        "ratio_fraction": text(row["ratio_fraction"]),
        "status": text(row["status"]),
        "proposed_at": text(row["proposed_at"]),
        "decided_at": maybe(row["decided_at"]),
        "exchange_date": maybe(row["exchange_date"]),
        "buyer_certificate_id": maybe(row["buyer_certificate_id"]),
        "reasons": text(row["reasons"]),
    }


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
    rows: Callable[[Connection], Iterator[ExportRow]]
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
