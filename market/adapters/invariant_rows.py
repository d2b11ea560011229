"""The rows the invariants are checked over (domain/invariants.py), read in one pass:
every certificate a thousand at a time in key order, and once each the open listings, the
cents sold from them and the undecided transfers (far fewer rows than certificates)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.repositories.trading import UNDECIDED, listings_t, offers_t, transfers_t
from market.adapters.tables import Certificate
from market.domain.invariants import Breach, CertificateFigures, check_certificate
from market.domain.rules.commitments import Commitments, commitments_from

certs_t = Certificate.__table__  # type: ignore[attr-defined]
BATCH = 1000
_FIGURES = (
    "face_cents",
    "balance_cents",
    "queued_cents",
    "transferred_cents",
    "applied_cents",
    "expired_cents",
    "recaptured_cents",
)


def certificate_figures(
    conn: Connection, ids: set[str] | None = None
) -> Iterator[CertificateFigures]:
    """Every certificate's figures (or those of `ids` only), in id order."""
    cols = [certs_t.c.id, certs_t.c.number, certs_t.c.is_original]
    cols += [certs_t.c[name] for name in _FIGURES]
    if ids is not None:
        wanted = sorted(ids)
        for start in range(0, len(wanted), BATCH):
            part = wanted[start : start + BATCH]
            stmt = select(*cols).where(certs_t.c.id.in_(part)).order_by(certs_t.c.id)
            for r in conn.execute(stmt).all():
                yield CertificateFigures(str(r[0]), str(r[1]), bool(r[2]), *map(int, r[3:]))
        return
    last: str | None = None
    while True:
        stmt = select(*cols).order_by(certs_t.c.id).limit(BATCH)
        if last is not None:
            stmt = stmt.where(certs_t.c.id > last)
        rows = conn.execute(stmt).all()
        for r in rows:
            yield CertificateFigures(str(r[0]), str(r[1]), bool(r[2]), *map(int, r[3:]))
        if len(rows) < BATCH:
            return
        last = rows[-1].id


def commitments_by_certificate(conn: Connection) -> dict[str, Commitments]:
    """What each certificate with an open listing or an undecided transfer promises."""
    listings: dict[str, dict[str, int]] = defaultdict(dict)
    for r in conn.execute(
        select(listings_t.c.id, listings_t.c.certificate_id, listings_t.c.amount_cents).where(
            listings_t.c.status == "open"
        )
    ):
        listings[r.certificate_id][r.id] = int(r.amount_cents)
    sold_stmt = (
        select(offers_t.c.listing_id, func.sum(transfers_t.c.amount_cents))
        .select_from(
            transfers_t.join(offers_t, offers_t.c.transfer_id == transfers_t.c.id).join(
                listings_t, listings_t.c.id == offers_t.c.listing_id
            )
        )
        .where(transfers_t.c.status == "approved", listings_t.c.status == "open")
        .group_by(offers_t.c.listing_id)
    )
    sold = {str(r[0]): int(r[1] or 0) for r in conn.execute(sold_stmt)}
    undecided: dict[str, list[tuple[str | None, int]]] = defaultdict(list)
    for r in conn.execute(
        select(transfers_t.c.certificate_id, offers_t.c.listing_id, transfers_t.c.amount_cents)
        .select_from(transfers_t.outerjoin(offers_t, offers_t.c.id == transfers_t.c.offer_id))
        .where(transfers_t.c.status.in_(UNDECIDED))
    ):
        undecided[r.certificate_id].append((r.listing_id, int(r.amount_cents)))
    return {
        cid: commitments_from(listings.get(cid, {}), sold, undecided.get(cid, []))
        for cid in set(listings) | set(undecided)
    }


def breaches(conn: Connection, ids: set[str] | None = None) -> list[Breach]:
    """Every invariant a certificate row breaks (of `ids` only, if given), in id order."""
    if ids is not None and not ids:
        return []
    committed = commitments_by_certificate(conn)
    none = Commitments()
    found: list[Breach] = []
    for figures in certificate_figures(conn, ids):
        found += check_certificate(figures, committed.get(figures.certificate_id, none))
    return found
