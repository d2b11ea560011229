"""Reading a committed TECH allocation of a fiscal year (TB-10..TB-15), and which of its
applications an allocation takes (ADM-5, ADM-6)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import TypedDict

from market.domain.rules import adm_allocation
from market.domain.rulesets import Ruleset, get_ruleset
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.reads import Source, repositories


class AllocationLine(TypedDict):
    """One application's part of the year's allocation (TB-14, TB-15)."""

    application_id: str
    party_id: str
    request_cents: int
    allocated_cents: int | None
    certificate_id: str | None


class AllocationView(TypedDict):
    fiscal_year: int
    triggered: bool
    total_cents: int
    committed: bool
    allocations: list[AllocationLine]


def allocated_ids(
    source: Source, fiscal_year: int, ruleset: Ruleset, candidates: Iterable[tuple[str, bool]]
) -> set[str]:
    """The eligible applications of `candidates` ((id, eligible) pairs) the year's
    allocation takes: where the ADM rules are in force for the year, only those submitted
    by the deadline (`adm_allocation`)."""
    submitted: dict[str, date] = {}
    if adm_allocation.requires_submission(fiscal_year, ruleset):
        submitted = repositories(source).tech_case_files.submitted_on_by_application()
    return {
        str(app_id)
        for app_id, eligible in candidates
        if eligible and adm_allocation.in_allocation(fiscal_year, submitted.get(app_id), ruleset)
    }


def committed_view(source: Source, fiscal_year: int) -> AllocationView | None:
    repos = repositories(source)
    head = repos.tech_allocations.of_year(fiscal_year)
    if head is None:
        return None
    rows = repos.tech_applications.in_receipt_order(fiscal_year=fiscal_year, eligible=True)
    candidates = [(r["id"], r["eligible"]) for r in rows]
    taken = allocated_ids(source, fiscal_year, get_ruleset(head["ruleset"]), candidates)
    # What the run left out (ADM-6: never submitted) is not shown as allocated; a
    # certificate the run issued always is.
    rows = [r for r in rows if r["id"] in taken or r["certificate_id"]]
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


def get_allocation(source: Source, actor: Actor, fiscal_year: int) -> AllocationView:
    actor.require(AUTHORITY, AUDITOR)
    done = committed_view(source, fiscal_year)
    if done is None:
        raise NotFoundError(
            f"No FY {fiscal_year} allocation has been committed.", {"fiscal_year": fiscal_year}
        )
    return done
