"""Reading a committed TECH allocation of a fiscal year (TB-10..TB-15)."""

from __future__ import annotations

from typing import Any

from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.reads import Source, repositories


def committed_view(source: Source, fiscal_year: int) -> dict[str, Any] | None:
    repos = repositories(source)
    head = repos.tech_allocations.of_year(fiscal_year)
    if head is None:
        return None
    rows = repos.tech_applications.in_receipt_order(fiscal_year=fiscal_year, eligible=True)
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


def get_allocation(source: Source, actor: Actor, fiscal_year: int) -> dict[str, Any]:
    actor.require(AUTHORITY, AUDITOR)
    done = committed_view(source, fiscal_year)
    if done is None:
        raise NotFoundError(
            f"No FY {fiscal_year} allocation has been committed.", {"fiscal_year": fiscal_year}
        )
    return done
