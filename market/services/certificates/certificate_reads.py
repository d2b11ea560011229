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
from typing import TypedDict

from market.adapters.eventstore import Event
from market.adapters.reads import certificates as rows_of
from market.domain.events.codec import JsonObject
from market.domain.model import Certificate, DerivedCertificate
from market.services.kernel.paging import split_page
from market.services.kernel.reads import Connection, Source, repositories

PAGE = 50


class CertificateBrief(TypedDict):
    """A certificate in another's lineage: an ancestor or a child."""

    id: str
    number: str
    holder_party_id: str
    face_cents: int
    origin: str


class HistoryItem(TypedDict):
    """One event of a certificate's history."""

    seq: int
    type: str
    recorded_at: str
    actor: str
    payload: JsonObject


def brief(cert: Certificate | DerivedCertificate) -> CertificateBrief:
    return CertificateBrief(
        id=cert.id,
        number=cert.number,
        holder_party_id=cert.holder_party_id,
        face_cents=cert.face_cents,
        origin=cert.origin,
    )


def children_page(
    source: Source, certificate_id: str, after: int | None = None, limit: int = PAGE
) -> tuple[list[CertificateBrief], int | None]:
    """Certificates derived from this one, oldest first; the cursor is an `issued_seq`."""
    children = repositories(source).certificates.children(certificate_id, after, limit + 1)
    kept, nxt = split_page(children, limit, lambda c: c.issued_seq)
    return [brief(c) for c in kept], nxt


def history_page(
    conn: Connection, certificate_id: str, after: int | None = None, limit: int = PAGE
) -> tuple[list[HistoryItem], int | None]:
    """The certificate's history after seq `after`, oldest first; the cursor is a seq."""
    start = after or 0
    transfers = rows_of.transfer_ids_after(conn, certificate_id, start, limit + 1)
    streams = [f"certificate-{certificate_id}"]
    streams += [f"transfer-{i}" for i in transfers]
    streams += [f"listing-{i}" for i in rows_of.listing_ids_of(conn, certificate_id)]
    items = [
        HistoryItem(
            seq=r["seq"],
            type=r["type"],
            recorded_at=r["recorded_at"],
            actor=r["actor"],
            payload=r["payload"],
        )
        for r in rows_of.events_of(conn, streams, start, limit + 1)
    ]
    return split_page(items, limit, lambda e: e["seq"])


def appended_history(appended: Iterable[Event], certificate_id: str) -> list[HistoryItem]:
    """The history page of a certificate issued in this unit of work: the events appended
    to its stream, shaped as `history_page` shows them (it is read before they commit)."""
    stream = f"certificate-{certificate_id}"
    return [
        HistoryItem(
            seq=e.seq, type=e.type, recorded_at=e.recorded_at, actor=e.actor, payload=e.payload
        )
        for e in appended
        if e.stream == stream
    ]
