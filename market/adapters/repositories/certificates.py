"""Certificates, the cap usage they charge and the digital media queue (BR-12, UTH-12,
DMQ-1..3): the reads issuance and its rules need."""

from __future__ import annotations

from sqlalchemy import FromClause, Join, and_, bindparam, func, select, true

from market.adapters.projections.store import Row
from market.adapters.queries import Query
from market.adapters.repositories.base import Repository, SqlMixin
from market.adapters.repositories.certificate_models import (
    cap_use_of,
    derived_certificate_of,
    queued_credit_of,
)
from market.adapters.repositories.models import certificate_of
from market.adapters.tables import CapUsage, Certificate, CertificateNotice, QueueEntry
from market.domain import model
from market.domain.model.certificate import DerivedCertificate
from market.domain.model.dm_pool import CapUse, QueuedCredit

certs_t = Certificate.__table__  # type: ignore[attr-defined]
caps_t = CapUsage.__table__  # type: ignore[attr-defined]
queue_t = QueueEntry.__table__  # type: ignore[attr-defined]
notices_t = CertificateNotice.__table__  # type: ignore[attr-defined]

_ORIGINALS = Query(
    select(func.count())
    .select_from(certs_t)
    .where(
        certs_t.c.program == bindparam("program"),
        certs_t.c.fiscal_year == bindparam("fiscal_year"),
        # `= true`, not `IS TRUE`: PostgreSQL can look equality up in the index
        # (program, fiscal_year, is_original); it cannot look up IS TRUE.
        certs_t.c.is_original == true(),
    )
)
_CHILDREN = select(
    certs_t.c.id,
    certs_t.c.number,
    certs_t.c.holder_party_id,
    certs_t.c.face_cents,
    certs_t.c.origin,
    certs_t.c.issued_seq,
).order_by(certs_t.c.issued_seq)
_LATEST_CHARGED_FY = Query(
    select(func.max(caps_t.c.fiscal_year)).where(
        caps_t.c.bucket == bindparam("bucket"), caps_t.c.used_cents > 0
    )
)
# A certificate's lineage's active notices, joined beside it: a row each, one row of NULL
# notice columns if none (`active_notices_in` reads them back).
NOTICE_COLUMNS = (
    notices_t.c.id.label("notice_id"),
    notices_t.c.certificate_id.label("notice_certificate_id"),
)


def with_lineage_notices(certificates: FromClause) -> Join:
    """`certificates` (the table, or a join holding it) outer-joined to the active notices
    of each certificate's lineage (its root's), ordered by `notices_t.c.id`."""
    active = and_(notices_t.c.root_id == certs_t.c.root_id, notices_t.c.status == "active")
    return certificates.outerjoin(notices_t, active)


_WITH_NOTICES = Query(
    select(certs_t, *NOTICE_COLUMNS)
    .select_from(with_lineage_notices(certs_t))
    .where(certs_t.c.id == bindparam("id"))
    .order_by(notices_t.c.id)
)
ActiveNotice = tuple[str, str]  # a notice's id and the certificate it was issued on


def active_notices_in(found: list[Row]) -> list[ActiveNotice]:
    """The active notices of rows joined with them (`notice_id`: None where none)."""
    notices = [r for r in found if r["notice_id"] is not None]
    return [(str(r["notice_id"]), str(r["notice_certificate_id"])) for r in notices]


_LAST_POSITION = Query(
    select(func.max(queue_t.c.position)).where(queue_t.c.pool == bindparam("pool"))
)


class CertificateRepository(Repository):
    table = "certificates"

    def load(self, certificate_id: str) -> model.Certificate | None:
        """The certificate as the rules read it (market.domain.model)."""
        row = self.get(certificate_id)
        return None if row is None else certificate_of(row)

    def with_active_notices(self, certificate_id: str) -> tuple[Row | None, list[ActiveNotice]]:
        """The certificate and its lineage's active notices (PRODUCT.md 8.3 trading halts),
        by notice id: what every trading step reads before deciding."""
        row = self.get(certificate_id)
        if row is None:
            return None, []
        found = self.store.rows("certificate_notices", root_id=row["root_id"], status="active")
        return row, [(str(n["id"]), str(n["certificate_id"])) for n in found]

    def originals_count(self, program: str, fiscal_year: int) -> int:
        """Original certificates of a program and fiscal year (their numbers are counted)."""
        return sum(
            1 for c in self.where(program=program, fiscal_year=fiscal_year) if c["is_original"]
        )

    def children(self, parent_id: str, after: int | None, limit: int) -> list[DerivedCertificate]:
        """Up to `limit` certificates derived from this one after `after` (an
        `issued_seq`), oldest first, as id, number, holder, face, origin and seq."""
        rows = sorted(self.where(parent_id=parent_id), key=lambda r: int(r["issued_seq"]))
        kept = [r for r in rows if after is None or int(r["issued_seq"]) > after][:limit]
        return [derived_certificate_of(r) for r in kept]

    def ancestry(self, certificate_id: str) -> dict[str, str | None]:
        """The parent link of the certificate and of each of its ancestors up to the
        original: all that halts.ancestors_or_self walks. (A lineage's whole map read every
        sibling: 11,000 rows for a certificate sold in pieces 11,000 times.)"""
        links: dict[str, str | None] = {}
        cid: str | None = certificate_id
        while cid is not None and cid not in links:
            row = self.get(cid)
            if row is None:
                break
            links[cid] = row["parent_id"]
            cid = row["parent_id"]
        return links

    def has_original_of(self, party_id: str) -> bool:
        """Whether a credit was issued (or allocated) to the party."""
        return bool(self.where(original_holder_party_id=party_id, is_original=True))

    def held_with_balance(self) -> list[Row]:
        """Certificates bought or passed through (not originals) with a usable balance,
        oldest first: what a closing carryover window may expire."""
        rows = [r for r in self.where(is_original=False) if int(r["balance_cents"]) > 0]
        return sorted(rows, key=lambda r: int(r["issued_seq"]))


class SqlCertificateRepository(SqlMixin, CertificateRepository):
    def with_active_notices(self, certificate_id: str) -> tuple[Row | None, list[ActiveNotice]]:
        """One statement (a join on the lineage's root), where a read of each took two.
        The row is held by a unit of work like any other it reads."""
        found = self.joined(_WITH_NOTICES, certificate_id)
        if found is None:
            return super().with_active_notices(certificate_id)
        if not found:
            return None, []
        row = {c.name: found[0][c.name] for c in certs_t.c}
        self.db.remember_read(self.table, row)
        return row, active_notices_in(found)

    def originals_count(self, program: str, fiscal_year: int) -> int:
        found = _ORIGINALS.scalar(self.conn, {"program": program, "fiscal_year": fiscal_year})
        return int(found or 0)

    def children(self, parent_id: str, after: int | None, limit: int) -> list[DerivedCertificate]:
        stmt = _CHILDREN.where(certs_t.c.parent_id == parent_id).limit(limit)
        if after is not None:
            stmt = stmt.where(certs_t.c.issued_seq > after)
        return [derived_certificate_of(dict(r)) for r in self.conn.execute(stmt).mappings()]

    def has_original_of(self, party_id: str) -> bool:
        stmt = (
            select(certs_t.c.id)
            .where(certs_t.c.original_holder_party_id == party_id, certs_t.c.is_original.is_(True))
            .limit(1)
        )
        return self.conn.execute(stmt).first() is not None

    def held_with_balance(self) -> list[Row]:
        stmt = (
            select(certs_t)
            .where(certs_t.c.balance_cents > 0, certs_t.c.is_original.is_(False))
            .order_by(certs_t.c.issued_seq)
        )
        return [dict(r) for r in self.conn.execute(stmt).mappings()]


class CapRepository(Repository):
    table = "cap_usage"

    def used_cents(self, cap_id: str) -> int:
        """Cents a cap row has charged; 0 before its first charge."""
        row = self.get(cap_id)
        return int(row["used_cents"]) if row is not None else 0

    def load(self, cap_id: str) -> CapUse | None:
        row = self.get(cap_id)
        return None if row is None else cap_use_of(row)

    def of_bucket(self, bucket: str) -> list[CapUse]:
        return [cap_use_of(r) for r in self.where(bucket=bucket)]

    def latest_charged_fiscal_year(self, bucket: str) -> int | None:
        """The latest fiscal year something was charged to (a row with only queued cents
        is a deferral from a year the pool may not have reached)."""
        years = [u.fiscal_year for u in self.of_bucket(bucket) if u.used_cents]
        return max(years) if years else None


class SqlCapRepository(SqlMixin, CapRepository):
    def latest_charged_fiscal_year(self, bucket: str) -> int | None:
        found = _LATEST_CHARGED_FY.scalar(self.conn, {"bucket": bucket})
        return int(found) if found is not None else None


class QueueRepository(Repository):
    """The digital media FIFO queue (DMQ-3), one row per certificate deferred."""

    table = "dm_queue"

    def load(self, certificate_id: str) -> QueuedCredit | None:
        row = self.get(certificate_id)
        return None if row is None else queued_credit_of(row)

    def waiting(self, pool: str) -> list[QueuedCredit]:
        """Entries of the pool with cents still deferred, in order of receipt."""
        entries = [queued_credit_of(r) for r in self.where(pool=pool)]
        return sorted((e for e in entries if e.remaining_cents > 0), key=lambda e: e.position)

    def last_position(self, pool: str) -> int:
        return max((int(r["position"]) for r in self.where(pool=pool)), default=0)


class SqlQueueRepository(SqlMixin, QueueRepository):
    def last_position(self, pool: str) -> int:
        return int(_LAST_POSITION.scalar(self.conn, {"pool": pool}) or 0)
