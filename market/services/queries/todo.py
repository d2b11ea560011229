"""What waits, on the Authority or on someone else, for the Authority's "Things to do":
one query per kind (never one per row), each the oldest `LIMIT` first with the whole
count beside them (a window count), and each row's "since" as the New York date of the
event or business date it has waited from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any, Generic, TypeVar

from sqlalchemy import and_, func, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Select

from market.adapters.queries import typed_row
from market.adapters.tables import (
    Certificate,
    EventRow,
    Fee,
    Registration,
    TaxClearance,
    TechApplication,
    TechCaseFile,
    Transfer,
    TransferFunding,
)
from market.services.kernel.clock import NEW_YORK
from market.services.queries.todo_rows import (
    DueUthReview,
    LapsingClearance,
    OwedFee,
    UthAward,
    WaitingClosing,
    WaitingRegistration,
    WaitingTech,
    WaitingTransfer,
)

transfers_t = Transfer.__table__  # type: ignore[attr-defined]
events_t = EventRow.__table__  # type: ignore[attr-defined]
regs_t = Registration.__table__  # type: ignore[attr-defined]
fees_t = Fee.__table__  # type: ignore[attr-defined]
clearances_t = TaxClearance.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]
apps_t = TechApplication.__table__  # type: ignore[attr-defined]
cases_t = TechCaseFile.__table__  # type: ignore[attr-defined]
funding_t = TransferFunding.__table__  # type: ignore[attr-defined]

LIMIT = 50
CLEARANCE_WINDOW_DAYS = 30


R = TypeVar("R")


@dataclass
class Kind(Generic[R]):
    """The oldest `LIMIT` rows of a kind of wait, and how many wait in all."""

    rows: list[R] = field(default_factory=list)
    total: int = 0


def new_york_date(recorded_at: str | None) -> date | None:
    """An event's `recorded_at` (ISO, UTC) as the date it was in New York."""
    if not recorded_at:
        return None
    at = datetime.fromisoformat(recorded_at)
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(NEW_YORK).date()


def _counted(conn: Connection, stmt: Select[Any], record: Callable[..., R]) -> Kind[R]:
    """The statement's rows as `record` (a TypedDict of its columns), and how many."""
    counted = stmt.add_columns(func.count().over().label("_n"))
    found = conn.execute(counted).mappings().all()
    total: int = found[0]["_n"] if found else 0
    return Kind([typed_row(record, r) for r in found], total)


def transfers(conn: Connection) -> Kind[WaitingTransfer]:
    """Transfers waiting for the buyer's confirmation or the Authority's approval, oldest
    wait first: a confirmed one has waited since its confirmation."""
    t = transfers_t
    since_seq = func.coalesce(t.c.confirmed_seq, t.c.created_seq)
    stmt = (
        select(
            t.c.id,
            t.c.program,
            t.c.seller_party_id,
            t.c.buyer_party_id,
            t.c.amount_cents,
            t.c.consideration_cents,
            t.c.status,
            events_t.c.recorded_at,
        )
        .join(events_t, events_t.c.seq == since_seq)
        .where(t.c.status.in_(("awaiting_buyer", "pending_approval")))
        .order_by(since_seq)
        .limit(LIMIT)
    )
    return _counted(conn, stmt, WaitingTransfer)


def closings(conn: Connection) -> Kind[WaitingClosing]:
    """Approved transfers whose payment is not recorded or whose receipt is not confirmed."""
    t, f = transfers_t, funding_t
    stmt = (
        select(
            t.c.id,
            t.c.program,
            t.c.seller_party_id,
            t.c.buyer_party_id,
            t.c.consideration_cents,
            f.c.paid_on,
            events_t.c.recorded_at,
        )
        .outerjoin(f, f.c.transfer_id == t.c.id)
        .join(events_t, events_t.c.seq == t.c.decided_seq)
        .where(t.c.status == "approved", f.c.confirmed_on.is_(None))
        .order_by(t.c.decided_seq)
        .limit(LIMIT)
    )
    return _counted(conn, stmt, WaitingClosing)


def registrations(conn: Connection) -> Kind[WaitingRegistration]:
    r = regs_t
    stmt = (
        select(r.c.id, r.c.legal_name, r.c.status, r.c.requested_at, r.c.entity_type)
        .where(r.c.status.in_(("email_unverified", "submitted")))
        .order_by(r.c.requested_seq)
        .limit(LIMIT)
    )
    return _counted(conn, stmt, WaitingRegistration)


def fees(conn: Connection) -> Kind[OwedFee]:
    """Invoices not yet paid or credited in full."""
    f = fees_t
    stmt = (
        select(
            f.c.id,
            f.c.party_id,
            f.c.kind,
            f.c.program,
            f.c.amount_cents,
            f.c.credited_cents,
            f.c.paid_cents,
            f.c.invoiced_on,
        )
        .where(f.c.credited_cents + f.c.paid_cents < f.c.amount_cents)
        .order_by(f.c.invoiced_seq)
        .limit(LIMIT)
    )
    return _counted(conn, stmt, OwedFee)


def tax_clearances(conn: Connection, today: date) -> Kind[LapsingClearance]:
    """Each latest tax clearance (none renews it) lapsed or lapsing within 30 days."""
    c, renewal = clearances_t, clearances_t.alias("renewal")
    soon = (today + timedelta(days=CLEARANCE_WINDOW_DAYS)).isoformat()
    stmt = (
        select(c.c.party_id, c.c.program, c.c.certificate_number, c.c.valid_until)
        .outerjoin(renewal, renewal.c.renews == c.c.id)
        .where(renewal.c.id.is_(None), c.c.valid_until < soon)
        .order_by(c.c.valid_until)
        .limit(LIMIT)
    )
    return _counted(conn, stmt, LapsingClearance)


def uth_awards(conn: Connection) -> list[UthAward]:
    """Original UTH awards (their tax periods carry each installment's review)."""
    c = certs_t
    stmt = (
        select(c.c.id, c.c.number, c.c.holder_party_id, c.c.tax_periods, events_t.c.recorded_at)
        .join(events_t, events_t.c.seq == c.c.issued_seq)
        .where(c.c.program == "UTH", c.c.origin == "issued")
        .order_by(c.c.issued_seq)
    )
    return [typed_row(UthAward, r) for r in conn.execute(stmt).mappings()]


def uth_reviews_due(conn: Connection, today: date) -> Kind[DueUthReview]:
    """Each installment of an original UTH award whose tax period has ended (its year is
    before this one) and that has no annual review recorded (UTH-7)."""
    due: list[DueUthReview] = []
    for award in uth_awards(conn):
        issued = new_york_date(award["recorded_at"])
        for t in award["tax_periods"] or []:
            if not isinstance(t, dict) or t.get("review"):
                continue
            period: int = t["period"]
            if period >= today.year:
                continue
            ended = date(period + 1, 1, 1)
            since = max(ended, issued) if issued else ended
            due.append(
                DueUthReview(
                    id=award["id"],
                    number=award["number"],
                    holder_party_id=award["holder_party_id"],
                    period=period,
                    cents=t["cents"],
                    since=since,
                )
            )
    due.sort(key=lambda r: (r["since"], r["period"]))
    return Kind(due[:LIMIT], len(due))


def tech_steps(conn: Connection) -> Kind[WaitingTech]:
    """TECH applications a step waits on: a case-file step not yet taken (preliminary
    approval, forwarding to Taxation, Taxation's certificate), or the allocation."""
    a, c = apps_t, cases_t
    stmt = (
        select(
            a.c.id,
            a.c.party_id,
            a.c.fiscal_year,
            a.c.received_on,
            a.c.requested_cents,
            c.c.submitted_on,
            c.c.preliminary_on,
            c.c.forwarded_on,
            c.c.tax_certificate_issued_on,
        )
        .outerjoin(c, c.c.application_id == a.c.id)
        .where(
            a.c.certificate_id.is_(None),
            or_(
                and_(c.c.application_id.is_not(None), c.c.tax_certificate_issued_on.is_(None)),
                and_(a.c.eligible.is_(True), a.c.allocated_cents.is_(None)),
            ),
        )
        .order_by(a.c.received_seq)
        .limit(LIMIT)
    )
    return _counted(conn, stmt, WaitingTech)


def waiting_since(conn: Connection, transfer_ids: Sequence[str]) -> dict[str, date | None]:
    """Each transfer's New York date since it has waited (its confirmation, else its
    proposal): one read of the page's transfers and those events."""
    if not transfer_ids:
        return {}
    t = transfers_t
    since_seq = func.coalesce(t.c.confirmed_seq, t.c.created_seq)
    rows = conn.execute(
        select(t.c.id, events_t.c.recorded_at)
        .join(events_t, events_t.c.seq == since_seq)
        .where(t.c.id.in_(set(transfer_ids)))
    )
    at: dict[str, str] = {r.id: r.recorded_at for r in rows}
    return {key: new_york_date(at.get(key)) for key in transfer_ids}
