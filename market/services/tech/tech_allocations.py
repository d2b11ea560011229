"""The TECH fiscal-year allocation: its plan, the preview and its one commit, which issues
the certificates (TB-10..TB-15, AMB-32/41; the domain's `tech_allocation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from market.domain.errors import (
    CapExceededError,
    IntakeStillOpenError,
    InvalidRequestError,
)
from market.domain.events.certificates import certificate_issued
from market.domain.events.tech import FyAllocationRun
from market.domain.model import TechApplication
from market.domain.programs import Program, TaxType
from market.domain.rules import tech_caps, tech_plan
from market.domain.rules.buckets import cap_id
from market.domain.rulesets import Ruleset
from market.services.kernel import clock
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.errors import ConflictError
from market.services.kernel.numbering import new_id, next_numbers
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.tech.tech_allocation_views import (
    AllocationLine,
    AllocationView,
    allocated_ids,
    committed_view,
)


def cap_usage_ids(fiscal_year: int) -> tuple[str, str]:
    """The cap_usage rows F1's caps report reads for TECH."""
    return cap_id("TECH", fiscal_year), cap_id("TECH_ZONE_SET_ASIDE", fiscal_year)


@dataclass(frozen=True)
class Planned:
    application: TechApplication
    request_cents: int
    allocated_cents: int


@dataclass(frozen=True)
class Plan:
    fiscal_year: int
    triggered: bool
    total_cents: int
    items: list[Planned]
    excluded: list[str]
    # Each party's lifetime allocations before this plan (TB-5), as the plan read them.
    lifetime_approved: dict[str, int] = field(default_factory=dict)


def _plan(source: Source, fiscal_year: int, ruleset: Ruleset) -> Plan:
    """The statute's allocation over the FY's eligible applications, in receipt order
    (`tech_plan.plan_columns`, the simulator's arithmetic too)."""
    repos = repositories(source)
    found = repos.tech_applications.plan_rows(fiscal_year)
    taken = allocated_ids(source, fiscal_year, ruleset, [(a.id, a.eligible) for a in found])
    eligible = [a for a in found if a.id in taken]
    approved = repos.tech_applications.lifetime_approved_by_party(fiscal_year)
    columns = tech_plan.plan_columns([a.plan_row() for a in eligible], approved, ruleset)
    items = [
        Planned(r, t_i, allocated)
        for r, t_i, allocated in zip(eligible, columns.requests, columns.cents, strict=True)
    ]
    excluded = [a.id for a in found if a.id not in taken]
    return Plan(fiscal_year, columns.triggered, columns.total_cents, items, excluded, approved)


# The allocation simulator (services/tech/simulator.py) plans exactly as preview and commit do.
plan_allocation = _plan


def _allocations(plan: Plan, certificate_ids: dict[str, str]) -> list[AllocationLine]:
    return [
        {
            "application_id": p.application.id,
            "party_id": p.application.party_id,
            "request_cents": p.request_cents,
            "allocated_cents": p.allocated_cents,
            "certificate_id": certificate_ids.get(p.application.id),
        }
        for p in plan.items
    ]


def preview_allocation(
    source: Source, actor: Actor, fiscal_year: int, ruleset: Ruleset
) -> AllocationView:
    """What the statute gives now; once committed, the committed allocation."""
    actor.require(AUTHORITY)
    done = committed_view(source, fiscal_year)
    if done is not None:
        return done
    plan = _plan(source, fiscal_year, ruleset)
    return {
        "fiscal_year": plan.fiscal_year,
        "triggered": plan.triggered,
        "total_cents": plan.total_cents,
        "allocations": _allocations(plan, {}),
        "committed": False,
    }


def commit_allocation(
    uow: AbstractUnitOfWork,
    actor: Actor,
    fiscal_year: int,
    ruleset: Ruleset,
    today: date | None = None,
) -> AllocationView:
    """Run the allocation once (TB-14, TB-15): FY_ALLOCATION_RUN, then one TECH certificate
    per positive allocation (CERT_ISSUED, origin `allocation`), charging the TECH caps."""
    actor.require(AUTHORITY)
    if uow.tech_allocations.of_year(fiscal_year) is not None:
        raise ConflictError(
            f"The FY {fiscal_year} allocation has already been committed.",
            {"fiscal_year": fiscal_year},
        )
    close = tech_caps.deadline(fiscal_year, ruleset)
    if (today or clock.today()) <= close:
        raise IntakeStillOpenError(
            f"FY {fiscal_year} applications are received until {close.isoformat()}; "
            "the allocation runs after that deadline (TB-14).",
            {"fiscal_year": fiscal_year, "deadline": close.isoformat()},
        )
    plan = _plan(uow, fiscal_year, ruleset)
    if not plan.items:
        raise InvalidRequestError(
            f"FY {fiscal_year} has no eligible TECH applications to allocate.",
            {"fiscal_year": fiscal_year},
        )
    fy_id, zone_id = cap_usage_ids(fiscal_year)
    room = ruleset.tech_fy_cap_cents - uow.caps.used_cents(fy_id)
    if plan.total_cents > room:
        raise CapExceededError(
            f"The allocation of {plan.total_cents} cents exceeds the FY {fiscal_year} room.",
            {"fiscal_year": fiscal_year, "remaining_cents": room, "total_cents": plan.total_cents},
        )
    zone_total = sum(p.allocated_cents for p in plan.items if p.application.in_innovation_zone)
    zone_used = min(zone_total, ruleset.tech_zone_setaside_cents)
    cert_ids = {p.application.id: new_id("cert") for p in plan.items if p.allocated_cents > 0}
    run_event = FyAllocationRun(
        fiscal_year=fiscal_year,
        triggered=plan.triggered,
        total_cents=plan.total_cents,
        ruleset=ruleset.name,
        allocations=_allocations(plan, cert_ids),
        excluded_application_ids=plan.excluded,
        cap_usage=[
            {
                "id": fy_id,
                "bucket": "TECH",
                "cap_cents": ruleset.tech_fy_cap_cents,
                "used_cents": plan.total_cents,
            },
            {
                "id": zone_id,
                "bucket": "TECH_ZONE_SET_ASIDE",
                "cap_cents": ruleset.tech_zone_setaside_cents,
                "used_cents": zone_used,
            },
        ],
    )
    uow.append(f"tech-fy-{fiscal_year}", run_event, actor.label)
    numbers = next_numbers(uow, Program.TECH.value, fiscal_year)
    for p in plan.items:
        cert_id = cert_ids.get(p.application.id)
        if cert_id is None:
            continue
        app = p.application
        cert = certificate_issued(
            certificate_id=cert_id,
            number=next(numbers),
            program=Program.TECH.value,
            holder_party_id=app.party_id,
            origin="allocation",
            face_cents=p.allocated_cents,
            fiscal_year=fiscal_year,
            tax_types=[TaxType.CBT.value, TaxType.GIT.value],
            tax_periods=[],
            credit_year=None,
            carryover_last_year=None,
            waiver_statement="",
            creditable_activity_ids=[],  # TECH benefits name no PT-1 activity
            attributes={
                "application_id": app.id,
                "seller_tax_regime": app.seller_tax_regime,
                "benefit_cents": app.benefit_cents,
                "request_cents": p.request_cents,
                "in_innovation_zone": app.in_innovation_zone,
                "benefit_split": app.benefit_split(p.allocated_cents),
                "allocation_triggered": plan.triggered,
            },
            ruleset=ruleset.name,
        )
        uow.append(f"certificate-{cert_id}", cert, actor.label, new_stream=True)
    view = committed_view(uow, fiscal_year)
    assert view is not None
    return view
