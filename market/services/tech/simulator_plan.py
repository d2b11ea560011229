"""The simulator's plan of a fiscal year not yet committed (PRODUCT.md 8.3; TB-5, TB-13..15).

What `tech_allocations.plan_allocation` (the preview's and the commit's plan) gives, read for 10,000
applicants a request: one joined query (each eligible application with its party's
lifetime allocations), plain tuples, and the plan's one arithmetic (`tech_plan.plan_columns`,
as the preview and the commit), so no object is made per applicant but the answer's row.
tests/integration/test_simulator_plan.py holds it equal to the plan on generated intakes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from market.adapters.reads import tech as tech_rows
from market.domain.rules import tech_plan
from market.domain.rulesets import Ruleset
from market.services.kernel.reads import Connection
from market.services.tech.tech_allocation_views import allocated_ids


class SimulatedLine(TypedDict):
    """An application's line in the simulator's answer: what it would get, and its
    party's lifetime room (TB-5) before and after."""

    application_id: str
    party_id: str
    received_on: str
    in_innovation_zone: bool
    requested_cents: int
    request_cents: int
    allocated_cents: int
    certificate_id: str | None
    lifetime_approved_cents: int
    lifetime_headroom_cents: int
    headroom_after_cents: int


@dataclass(frozen=True)
class FreshPlan:
    rows: list[SimulatedLine]  # the answer's rows, in receipt order
    lifetime_approved: dict[str, int]  # each applicant party's allocations before this FY
    triggered: bool
    total_cents: int


def _applications(conn: Connection, fiscal_year: int) -> Sequence[Any]:
    """The FY's applications in receipt order with their party's earlier allocations."""
    return tech_rows.intake(conn, fiscal_year)


def plan(conn: Connection, fiscal_year: int, ruleset: Ruleset) -> FreshPlan:
    everyone = _applications(conn, fiscal_year)
    # Every applicant party's, eligible or not (a participant's own headroom).
    approved = {r[1]: int(r[7]) for r in everyone if r[7] is not None}
    # The applications the allocation would take (eligible; submitted, where ADM-6 binds).
    taken = allocated_ids(conn, fiscal_year, ruleset, [(r[0], r[8]) for r in everyone])
    found = [r for r in everyone if r[0] in taken]
    columns = tech_plan.plan_columns(found, approved, ruleset)
    cap = ruleset.tech_lifetime_cap_cents
    rows: list[SimulatedLine] = []
    for (app_id, party, requested, _, zone, _, received_on, prior, _), t_i, allocated in zip(
        found, columns.requests, columns.cents, strict=True
    ):
        used = int(prior) if prior is not None else 0
        headroom = cap - used if used < cap else 0  # TB-5
        after = headroom - allocated
        rows.append(
            {
                "application_id": app_id,
                "party_id": party,
                "received_on": received_on,
                "in_innovation_zone": bool(zone),
                "requested_cents": int(requested),
                "request_cents": t_i,
                "allocated_cents": allocated,
                "certificate_id": None,
                "lifetime_approved_cents": used,
                "lifetime_headroom_cents": headroom,
                # What would be left once this allocation is made.
                "headroom_after_cents": after if after > 0 else 0,
            }
        )
    return FreshPlan(rows, approved, columns.triggered, columns.total_cents)
