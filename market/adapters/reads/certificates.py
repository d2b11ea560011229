"""Certificates for the pages and lists: a holder's certificates by issue, the notices on
lineages, and the streams and events of a certificate's history (each an index range
that stops after `limit` rows: certificate_reads explains why that is enough)."""

from __future__ import annotations

from sqlalchemy import and_, or_, select
from sqlalchemy.engine import Connection

from market.adapters.queries import Row
from market.adapters.tables import Certificate, CertificateNotice, EventRow, Listing, Transfer

certs_t = Certificate.__table__  # type: ignore[attr-defined]
notices_t = CertificateNotice.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
listings_t = Listing.__table__  # type: ignore[attr-defined]
events_t = EventRow.__table__  # type: ignore[attr-defined]


def held_by(conn: Connection, party_id: str, after: int | None, limit: int) -> list[Row]:
    """Up to `limit` certificates the party holds, by `issued_seq` after `after`."""
    stmt = (
        select(certs_t)
        .where(certs_t.c.holder_party_id == party_id)
        .order_by(certs_t.c.issued_seq)
        .limit(limit)
    )
    if after is not None:
        stmt = stmt.where(certs_t.c.issued_seq > after)
    return [dict(r) for r in conn.execute(stmt).mappings()]


def active_notices_on(conn: Connection, roots: list[str]) -> list[Row]:
    """The active notices (id, certificate_id, root_id) on these lineages."""
    stmt = select(notices_t.c.id, notices_t.c.certificate_id, notices_t.c.root_id).where(
        notices_t.c.root_id.in_(roots), notices_t.c.status == "active"
    )
    return [dict(r) for r in conn.execute(stmt).mappings()]


def notice_ids_on(conn: Connection, certificate_ids: list[str]) -> list[str]:
    """The ids of the notices on these certificates, in the order they were issued."""
    stmt = (
        select(notices_t.c.id)
        .where(notices_t.c.certificate_id.in_(certificate_ids))
        .order_by(notices_t.c.issued_seq)
    )
    return [str(r.id) for r in conn.execute(stmt)]


def transfer_ids_after(conn: Connection, certificate_id: str, after: int, limit: int) -> list[str]:
    """The transfers selling from the certificate proposed or decided first after `after`
    (`limit` of each), and the one that created it, if its events are after `after`."""
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
    bought = select(t.c.id).where(
        t.c.buyer_certificate_id == certificate_id,
        or_(t.c.created_seq > after, and_(t.c.decided_seq.is_not(None), t.c.decided_seq > after)),
    )
    ids: list[str] = []
    for stmt in (proposed, decided, bought):
        ids += [str(r.id) for r in conn.execute(stmt)]
    return list(dict.fromkeys(ids))


def listing_ids_of(conn: Connection, certificate_id: str) -> list[str]:
    stmt = select(listings_t.c.id).where(listings_t.c.certificate_id == certificate_id)
    return [str(r.id) for r in conn.execute(stmt)]


def events_of(conn: Connection, streams: list[str], after: int, limit: int) -> list[Row]:
    """Up to `limit` events of these streams after seq `after`, oldest first."""
    stmt = (
        select(
            events_t.c.seq,
            events_t.c.type,
            events_t.c.recorded_at,
            events_t.c.actor,
            events_t.c.payload,
        )
        .where(events_t.c.stream.in_(streams), events_t.c.seq > after)
        .order_by(events_t.c.seq)
        .limit(limit)
    )
    return [dict(r) for r in conn.execute(stmt).mappings()]
