"""What the seller's and buyer's desks read, each in time that does not grow with the
party's history: totals are SQL aggregates over an index, lists are keyset pages (the names
and numbers of the rows shown: market.services.kernel.lookups)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, RowMapping

from market.adapters.repositories.models import certificate_of
from market.adapters.tables import Certificate as CertificateRow
from market.adapters.tables import CreditApplication, Offer, Transfer
from market.domain.model import Certificate, TransferStatus
from market.domain.rulesets import Ruleset
from market.services.kernel.paging import split_page
from market.services.queries.pages_queries import carryover_last_year

certs_t = CertificateRow.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
credit_apps_t = CreditApplication.__table__  # type: ignore[attr-defined]

PAGE = 50


@dataclass(frozen=True)
class UsableCertificate:
    """A certificate with a usable balance, as a form's choice lists it."""

    id: str
    number: str
    balance_cents: int
    program: str
    tax_types: tuple[str, ...]


@dataclass(frozen=True)
class Holding:
    """A certificate the party bought or received by pass-through, and `last_year`: the
    last tax year it may be used in (None: no single window)."""

    id: str
    number: str
    program: str
    origin: str
    parent_id: str | None
    status: str
    face_cents: int
    balance_cents: int
    applied_cents: int
    tax_types: tuple[str, ...]
    last_year: int | None


@dataclass(frozen=True)
class CreditApplicationLine:
    """A credit the party applied to a return, and what the statute limited it to."""

    id: str
    certificate_id: str
    tax_type: str
    tax_year: int
    liability_cents: int
    requested_cents: int
    applied_cents: int
    carried_forward_cents: int
    limited_by: str


@dataclass(frozen=True)
class ProposedTransfer:
    """A negotiated transfer the seller proposed: waiting for the buyer, or declined by it
    (`reasons`: the buyer's, if it gave any)."""

    id: str
    program: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    status: TransferStatus  # awaiting_buyer | declined
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class AppliedToReturn:
    """What the party applied through this market to one return (tax type, tax year)."""

    tax_type: str
    tax_year: int
    applied_cents: int
    applications: int


def paid_summary(conn: Connection, seller_party_id: str) -> tuple[int, int]:
    """(cents received, number of approved sales): every approved sale, summed in SQL."""
    t = transfers_t
    row = conn.execute(
        select(func.coalesce(func.sum(t.c.consideration_cents), 0), func.count()).where(
            t.c.seller_party_id == seller_party_id, t.c.status == "approved"
        )
    ).one()
    return int(row[0] or 0), int(row[1] or 0)


def offers_page(
    conn: Connection, party_id: str, side: str, after: int | None = None, limit: int = PAGE
) -> tuple[list[dict[str, Any]], int | None]:
    """Offers where the party is the seller (`side="seller"`) or the buyer, newest first;
    the cursor is the `created_seq` to continue below."""
    column = offers_t.c.seller_party_id if side == "seller" else offers_t.c.buyer_party_id
    stmt = (
        select(offers_t)
        .where(column == party_id)
        .order_by(offers_t.c.created_seq.desc())
        .limit(limit + 1)
    )
    if after is not None:
        stmt = stmt.where(offers_t.c.created_seq < after)
    rows = [dict(r) for r in conn.execute(stmt).mappings()]
    return split_page(rows, limit, lambda r: r["created_seq"])


def usable_certificates(
    conn: Connection, party_id: str, limit: int = 200
) -> list[UsableCertificate]:
    """The party's certificates with a usable balance, oldest first (a form's choices)."""
    c = certs_t
    stmt = (
        select(c.c.id, c.c.number, c.c.balance_cents, c.c.program, c.c.tax_types)
        .where(c.c.holder_party_id == party_id, c.c.balance_cents > 0)
        .order_by(c.c.issued_seq)
        .limit(limit)
    )
    return [
        UsableCertificate(r.id, r.number, r.balance_cents, r.program, tuple(r.tax_types or ()))
        for r in conn.execute(stmt)
    ]


def credit_applications_page(
    conn: Connection, party_id: str, limit: int = PAGE
) -> list[CreditApplicationLine]:
    """The party's credit applications of the latest tax years, `limit` of them: one walk
    down the (party, tax year, id) index, however many the party has made."""
    ca = credit_apps_t
    stmt = (
        select(ca)
        .where(ca.c.party_id == party_id)
        .order_by(ca.c.tax_year.desc(), ca.c.id.desc())
        .limit(limit)
    )
    return [_credit_line(r) for r in conn.execute(stmt).mappings()]


def _credit_line(r: RowMapping) -> CreditApplicationLine:
    return CreditApplicationLine(
        id=r["id"],
        certificate_id=r["certificate_id"],
        tax_type=r["tax_type"],
        tax_year=r["tax_year"],
        liability_cents=r["liability_cents"],
        requested_cents=r["requested_cents"],
        applied_cents=r["applied_cents"],
        carried_forward_cents=r["carried_forward_cents"],
        limited_by=r["limited_by"],
    )


def holdings_page(
    conn: Connection, party_id: str, ruleset: Ruleset, after: int | None = None, limit: int = PAGE
) -> tuple[list[Holding], int | None]:
    """Certificates the party bought or received by pass-through, oldest first, each with
    the last tax year it may be used in; the cursor is an `issued_seq`. Every holding is
    reachable, page by page."""
    c = certs_t
    stmt = (
        select(c)
        .where(c.c.holder_party_id == party_id, c.c.is_original.is_(False))
        .order_by(c.c.issued_seq)
        .limit(limit + 1)
    )
    if after is not None:
        stmt = stmt.where(c.c.issued_seq > after)
    rows = conn.execute(stmt).mappings().all()
    kept, nxt = split_page(rows, limit, lambda r: r["issued_seq"])
    return [_holding(certificate_of(dict(r)), r, ruleset) for r in kept], nxt


def _holding(cert: Certificate, r: RowMapping, ruleset: Ruleset) -> Holding:
    return Holding(
        id=cert.id,
        number=cert.number,
        program=cert.program.value,
        origin=cert.origin,
        parent_id=r["parent_id"],
        status=r["status"],
        face_cents=r["face_cents"],
        balance_cents=cert.balance_cents,
        applied_cents=r["applied_cents"],
        tax_types=cert.tax_types,
        last_year=carryover_last_year(cert, ruleset),
    )


def proposed_transfers(
    conn: Connection, seller_party_id: str, limit: int = 20
) -> list[ProposedTransfer]:
    """The seller's negotiated transfers still waiting for the buyer or declined by it,
    newest first (each status a walk down the seller's status index)."""
    t = transfers_t
    stmt = (
        select(
            t.c.id,
            t.c.program,
            t.c.buyer_party_id,
            t.c.amount_cents,
            t.c.consideration_cents,
            t.c.status,
            t.c.reasons,
        )
        .where(
            t.c.seller_party_id == seller_party_id,
            t.c.status.in_(("awaiting_buyer", "declined")),
            t.c.offer_id.is_(None),
        )
        .order_by(t.c.created_seq.desc())
        .limit(limit)
    )
    return [
        ProposedTransfer(
            id=r.id,
            program=r.program,
            buyer_party_id=r.buyer_party_id,
            amount_cents=r.amount_cents,
            consideration_cents=r.consideration_cents,
            status=TransferStatus(r.status),
            reasons=tuple(str(x) for x in r.reasons or ()),
        )
        for r in conn.execute(stmt)
    ]


def applied_by_return(conn: Connection, party_id: str, limit: int = 20) -> list[AppliedToReturn]:
    """What the party has applied through this market to each return (tax type, tax
    year), the latest years first: the amounts a new application counts as other credits."""
    ca = credit_apps_t
    stmt = (
        select(
            ca.c.tax_type,
            ca.c.tax_year,
            func.sum(ca.c.applied_cents).label("applied_cents"),
            func.count().label("applications"),
        )
        .where(ca.c.party_id == party_id)
        .group_by(ca.c.tax_type, ca.c.tax_year)
        .order_by(ca.c.tax_year.desc(), ca.c.tax_type)
        .limit(limit)
    )
    return [
        # A SQL SUM of cents is a NUMERIC on PostgreSQL: read back as an int.
        AppliedToReturn(r.tax_type, r.tax_year, int(r.applied_cents or 0), r.applications)
        for r in conn.execute(stmt)
    ]
