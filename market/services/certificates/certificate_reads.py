"""A certificate's children and history, page by page, in time that does not grow with the
certificate's lineage (an award sold in ten thousand pieces) or with the ledger.

History is every event of the certificate's own stream, of its listings' streams and of
the streams of the transfers that sell from it or created it, in seq order. A page after
`after` needs only the streams whose next event comes soonest: a transfer stream holds its
TRANSFER_PROPOSED (`created_seq`) and its decision (`decided_seq`), so the `limit`
transfers proposed first after `after` and the `limit` decided first after it are the
only transfer streams that can have an event on the page: each query is an index range
that stops after `limit` rows (asking the decided ones to have been proposed before
`after` too would make it scan every later decision of the certificate).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.engine import Connection

from market.adapters.tables import EventRow, Listing, Transfer
from market.services.kernel.paging import split_page
from market.services.kernel.reads import Source, repositories

transfers_t = Transfer.__table__  # type: ignore[attr-defined]
listings_t = Listing.__table__  # type: ignore[attr-defined]
events_t = EventRow.__table__  # type: ignore[attr-defined]

PAGE = 50


def brief(row: Any) -> dict[str, Any]:
    return {
        "id": row["id"],
        "number": row["number"],
        "holder_party_id": row["holder_party_id"],
        "face_cents": int(row["face_cents"]),
        "origin": row["origin"],
    }


def children_page(
    source: Source, certificate_id: str, after: int | None = None, limit: int = PAGE
) -> tuple[list[dict[str, Any]], int | None]:
    """Certificates derived from this one, oldest first; the cursor is an `issued_seq`."""
    rows = repositories(source).certificates.children(certificate_id, after, limit + 1)
    kept, nxt = split_page(rows, limit, lambda r: int(r["issued_seq"]))
    return [brief(r) for r in kept], nxt


def _transfer_streams(conn: Connection, certificate_id: str, after: int, limit: int) -> list[str]:
    t = transfers_t
    proposed = (
        select(t.c.id)
        .where(t.c.certificate_id == certificate_id, t.c.created_seq > after)
        .order_by(t.c.created_seq)
        .limit(limit)
    )
    decided = (
        select(t.c.id)
        .where(t.c.certificate_id == certificate_id, t.c.decided_seq > after)
        .order_by(t.c.decided_seq)
        .limit(limit)
    )
    # The transfer that created this certificate (as the buyer's), whatever its seq.
    bought = select(t.c.id).where(
        t.c.buyer_certificate_id == certificate_id,
        or_(t.c.created_seq > after, and_(t.c.decided_seq.is_not(None), t.c.decided_seq > after)),
    )
    ids: list[str] = []
    for stmt in (proposed, decided, bought):
        ids += [r.id for r in conn.execute(stmt)]
    return [f"transfer-{i}" for i in dict.fromkeys(ids)]


def history_page(
    conn: Connection, certificate_id: str, after: int | None = None, limit: int = PAGE
) -> tuple[list[dict[str, Any]], int | None]:
    """The certificate's history after seq `after`, oldest first; the cursor is a seq."""
    start = after or 0
    listing_ids = [
        r.id
        for r in conn.execute(
            select(listings_t.c.id).where(listings_t.c.certificate_id == certificate_id)
        )
    ]
    streams = [f"certificate-{certificate_id}"]
    streams += _transfer_streams(conn, certificate_id, start, limit + 1)
    streams += [f"listing-{lid}" for lid in listing_ids]
    rows = conn.execute(
        select(
            events_t.c.seq,
            events_t.c.type,
            events_t.c.recorded_at,
            events_t.c.actor,
            events_t.c.payload,
        )
        .where(events_t.c.stream.in_(streams), events_t.c.seq > start)
        .order_by(events_t.c.seq)
        .limit(limit + 1)
    ).mappings()
    items = [
        {
            "seq": int(r["seq"]),
            "type": r["type"],
            "recorded_at": r["recorded_at"],
            "actor": r["actor"],
            "payload": r["payload"],
        }
        for r in rows
    ]
    return split_page(items, limit, lambda e: int(e["seq"]))


def appended_history(appended: Iterable[Any], certificate_id: str) -> list[dict[str, Any]]:
    """The history page of a certificate issued in this unit of work: the events appended
    to its stream, shaped as `history_page` shows them (it is read before they commit)."""
    stream = f"certificate-{certificate_id}"
    return [
        {
            "seq": e.seq,
            "type": e.type,
            "recorded_at": e.recorded_at,
            "actor": e.actor,
            "payload": e.payload,
        }
        for e in appended
        if e.stream == stream
    ]
