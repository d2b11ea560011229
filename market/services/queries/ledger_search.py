"""The ledger explorer's filters: events by type, by a party they name and by the day they
were recorded, page by page in seq order; and the names and numbers the explorer prints in
place of ids. Reads only."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypedDict

from sqlalchemy import String, cast, select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import event_from_row
from market.adapters.tables import EventRow
from market.domain.events import event_types as known_event_types
from market.domain.events.certificates import CertificateIssued
from market.services.kernel import lookups
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.paging import split_page
from market.services.trust.checkpoint_views import EventShown, event_shown

events_t = EventRow.__table__  # type: ignore[attr-defined]


class IssueRecord(TypedDict):
    """Where a certificate's CERT_ISSUED event is in the ledger, to find and check it."""

    seq: int
    recorded_at: str
    hash: str


@dataclass(frozen=True)
class EventFilter:
    """Every field optional; together they narrow (AND). `party_id` matches an event whose
    payload names the party anywhere (seller, buyer, holder, owner, allocation line); ids
    have a fixed length, so one id never matches inside another."""

    event_type: str | None = None
    party_id: str | None = None
    stream: str | None = None
    recorded_from: date | None = None
    recorded_to: date | None = None  # inclusive


def filtered_events(
    conn: Connection, actor: Actor, f: EventFilter, after: int, limit: int
) -> tuple[list[EventShown], int | None]:
    actor.require(AUTHORITY, AUDITOR)
    stmt = select(events_t).where(events_t.c.seq > after)
    if f.event_type:
        stmt = stmt.where(events_t.c.type == f.event_type)
    if f.stream:
        stmt = stmt.where(events_t.c.stream == f.stream)
    if f.party_id:
        stmt = stmt.where(cast(events_t.c.payload, String).contains(f.party_id, autoescape=True))
    if f.recorded_from:
        stmt = stmt.where(events_t.c.recorded_at >= f.recorded_from.isoformat())
    if f.recorded_to:
        stmt = stmt.where(events_t.c.recorded_at < (f.recorded_to + timedelta(days=1)).isoformat())
    rows = conn.execute(stmt.order_by(events_t.c.seq).limit(limit + 1)).all()
    kept, nxt = split_page([event_from_row(r) for r in rows], limit, lambda e: e.seq)
    return [event_shown(e) for e in kept], nxt


def event_types() -> list[str]:
    """Every type the ledger can hold: the typed event registry's (market.domain.events),
    not a scan of the events table."""
    return sorted(known_event_types())


def display_names(
    conn: Connection, events: Iterable[EventShown], certificate_ids: Iterable[str] = ()
) -> dict[str, str]:
    """The names of the parties these events' payloads name and the numbers of the
    certificates they name (and of `certificate_ids`): what the page's sentences print
    in place of ids. A sentence looks a name up by a payload value, so every text value in
    the payloads is a candidate party id; only the parties among them are read."""
    shown = list(events)
    numbers = lookups.numbers_of(conn, certificate_ids_in(shown) | set(certificate_ids))
    return lookups.names_of(conn, texts_in(shown)) | numbers


def texts_in(events: Iterable[EventShown]) -> set[str]:
    """Every text value anywhere in the events' payloads (nested objects and lists too)."""
    found: set[str] = set()
    todo: list[Any] = [e.get("payload") or {} for e in events]
    while todo:
        value = todo.pop()
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
    return found


CERTIFICATE_KEYS = ("certificate_id", "buyer_certificate_id")


def certificate_ids_in(events: Iterable[EventShown]) -> set[str]:
    found: set[str] = set()
    for e in events:
        payload = e.get("payload") or {}
        found.update(str(payload[k]) for k in CERTIFICATE_KEYS if payload.get(k))
    return found


def issue_record(
    conn: Connection, history: Iterable[EventShown], certificate_id: str
) -> IssueRecord | None:
    """The CERT_ISSUED event that created the certificate: its seq, day and hash, which the
    printed certificate carries so anyone can find that event in the ledger and check it."""
    for e in history:
        if (
            e["type"] == CertificateIssued.TYPE
            and (e.get("payload") or {}).get("certificate_id") == certificate_id
        ):
            digest = conn.execute(
                select(events_t.c.hash).where(events_t.c.seq == e["seq"])
            ).scalar()
            return {"seq": e["seq"], "recorded_at": e["recorded_at"], "hash": str(digest)}
    return None
