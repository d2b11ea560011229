"""Reading a committed TECH allocation of a fiscal year (TB-10..TB-15)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.tables import TechAllocation, TechApplication
from market.services.actor import AUDITOR, AUTHORITY, Actor
from market.services.errors import NotFoundError

apps_t = TechApplication.__table__  # type: ignore[attr-defined]
allocs_t = TechAllocation.__table__  # type: ignore[attr-defined]


def _committed(conn: Connection, fiscal_year: int) -> dict[str, Any] | None:
    row = conn.execute(select(allocs_t).where(allocs_t.c.id == str(fiscal_year))).mappings().first()
    return dict(row) if row is not None else None


def committed_view(conn: Connection, fiscal_year: int) -> dict[str, Any] | None:
    head = _committed(conn, fiscal_year)
    if head is None:
        return None
    rows = conn.execute(
        select(apps_t)
        .where(apps_t.c.fiscal_year == fiscal_year, apps_t.c.eligible.is_(True))
        .order_by(apps_t.c.received_seq)
    ).mappings()
    return {
        "fiscal_year": fiscal_year,
        "triggered": head["triggered"],
        "total_cents": head["total_cents"],
        "committed": True,
        "allocations": [
            {
                "application_id": r["id"],
                "party_id": r["party_id"],
                "request_cents": r["requested_cents"],
                "allocated_cents": r["allocated_cents"],
                "certificate_id": r["certificate_id"],
            }
            for r in rows
        ],
    }


def get_allocation(conn: Connection, actor: Actor, fiscal_year: int) -> dict[str, Any]:
    actor.require(AUTHORITY, AUDITOR)
    done = committed_view(conn, fiscal_year)
    if done is None:
        raise NotFoundError(
            f"No FY {fiscal_year} allocation has been committed.", {"fiscal_year": fiscal_year}
        )
    return done
