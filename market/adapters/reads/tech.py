"""TECH for the pages and the simulator: a fiscal year's intake in one joined statement
(10,000 applicants a request: rows as they come, no object made per applicant), the
committed run's payload, and the approved TECH sales the covenant monitor follows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.tables import (
    EventRow,
    LedgerHead,
    Party,
    TechAllocation,
    TechApplication,
    Transfer,
)

events_t = EventRow.__table__  # type: ignore[attr-defined]
apps_t = TechApplication.__table__  # type: ignore[attr-defined]
allocs_t = TechAllocation.__table__  # type: ignore[attr-defined]
head_t = LedgerHead.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]


def intake(conn: Connection, fiscal_year: int) -> Sequence[Any]:
    """The FY's applications in receipt order, each with whether it is eligible and what
    its party was allocated before (NULL: nothing), as one statement. The columns lead
    with `tech_plan.plan_columns`'s row, then what the simulator's answer adds."""
    used = (
        select(apps_t.c.party_id, func.sum(apps_t.c.allocated_cents).label("used"))
        .where(apps_t.c.allocated_cents.is_not(None))
        .group_by(apps_t.c.party_id)
        .subquery()
    )
    return conn.execute(
        select(
            apps_t.c.id,
            apps_t.c.party_id,
            apps_t.c.requested_cents,
            apps_t.c.benefit_cents,
            apps_t.c.in_innovation_zone,
            apps_t.c.received_at,
            apps_t.c.received_on,
            used.c.used,
            apps_t.c.eligible,
        )
        .select_from(apps_t.outerjoin(used, used.c.party_id == apps_t.c.party_id))
        .where(apps_t.c.fiscal_year == fiscal_year)
        .order_by(apps_t.c.received_seq)
    ).all()


def committed_run_payload(conn: Connection, fiscal_year: int, run_type: str) -> Any:
    """The payload of the FY's allocation run (`run_type`: its event type)."""
    return conn.execute(
        select(events_t.c.payload).where(
            events_t.c.stream == f"tech-fy-{fiscal_year}", events_t.c.type == run_type
        )
    ).scalar_one()


def applications_by_id(conn: Connection, fiscal_year: int) -> dict[str, Any]:
    """The FY's applications' receipt date, zone and request, by id."""
    stmt = select(
        apps_t.c.id, apps_t.c.received_on, apps_t.c.in_innovation_zone, apps_t.c.requested_cents
    ).where(apps_t.c.fiscal_year == fiscal_year)
    return {r.id: r for r in conn.execute(stmt)}


def is_committed(conn: Connection, fiscal_year: int) -> bool:
    stmt = select(allocs_t.c.id).where(allocs_t.c.id == str(fiscal_year))
    return conn.execute(stmt).first() is not None


def head_hash(conn: Connection) -> str:
    return str(conn.execute(select(head_t.c.hash).where(head_t.c.id == 1)).scalar_one())


def approved_tech_sales(conn: Connection) -> Sequence[Any]:
    """Approved TECH transfers with an exchange date and their seller's name, by seller,
    then date."""
    t = transfers_t
    return conn.execute(
        select(
            t.c.id,
            t.c.certificate_id,
            t.c.seller_party_id,
            t.c.buyer_party_id,
            t.c.amount_cents,
            t.c.consideration_cents,
            t.c.exchange_date,
            t.c.hq_window_end,
            t.c.use_of_proceeds,
            parties_t.c.name,
        )
        .select_from(t.join(parties_t, parties_t.c.id == t.c.seller_party_id))
        .where(t.c.program == "TECH", t.c.status == "approved", t.c.exchange_date.is_not(None))
        .order_by(t.c.seller_party_id, t.c.exchange_date, t.c.id)
    ).all()
