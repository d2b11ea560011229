"""TECH: surrender applications, the fiscal-year allocation preview and its one commit
(TB-1..TB-15, AMB-30/31/32/40/41/48).

Every rule is the domain's: eligibility (`tech_eligibility`), the benefit value
(`tech_benefit`), the lifetime cap and deadline (`tech_caps`) and the allocation
(`tech_allocation`). This module loads state, asks the domain and appends events.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.tables import CapUsage, Certificate, TechAllocation, TechApplication
from market.domain.errors import (
    ApplicationDeadlinePassedError,
    CapExceededError,
    InvalidRequestError,
)
from market.domain.programs import Program, TaxType
from market.domain.rules import tech_benefit, tech_caps, tech_receipt
from market.domain.rules.tech_allocation import Applicant, allocate
from market.domain.rules.tech_eligibility import TechFacts, check_eligibility
from market.domain.rulesets import Ruleset
from market.domain.values import floor_int, parse_ratio
from market.services import clock, tech_parents, tech_receipts
from market.services.actor import AUDITOR, AUTHORITY, PARTICIPANT, Actor
from market.services.errors import ConflictError, NotFoundError, RuleRefusedError, not_found
from market.services.numbering import new_id, next_numbers
from market.services.parties import load_party
from market.services.uow import UnitOfWork

apps_t = TechApplication.__table__  # type: ignore[attr-defined]
allocs_t = TechAllocation.__table__  # type: ignore[attr-defined]
caps_t = CapUsage.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]

REGIMES = ("CBT", "GIT")
FACT_NAMES = ("us_employees", "nj_full_time_employees", "formed_on")
INELIGIBLE = "ineligible_seller"


@dataclass(frozen=True)
class NewTechApplication:
    party_id: str
    received_on: date | datetime | str | None  # the Authority's, for a paper filing (TB-6)
    nol_cents: int
    allocation_factor: str
    seller_tax_regime: str
    rnd_credit_cents: int
    in_innovation_zone: bool | None = None
    tax_year: int | None = None
    fiscal_year: int | None = None
    requested_cents: int | None = None
    us_employees: int | None = None
    nj_full_time_employees: int | None = None
    formed_on: date | None = None
    operating_income_cents_by_year: dict[str, int] | None = None
    parent_positive_noi: bool = False
    consolidated_group_positive_noi: bool = False
    hq_in_nj: bool = True
    has_protected_ip: bool = True
    receipt_reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def cap_usage_ids(fiscal_year: int) -> tuple[str, str]:
    """The cap_usage rows F1's caps report reads for TECH."""
    return f"TECH:{fiscal_year}", f"TECH_ZONE_SET_ASIDE:{fiscal_year}"


# ---- applications ---------------------------------------------------------------------


def lifetime_approved_cents(conn: Connection, party_id: str) -> int:
    """AMB-40: approved (allocated) surrender amounts of the party's applications."""
    rows = conn.execute(
        select(apps_t.c.allocated_cents).where(
            apps_t.c.party_id == party_id, apps_t.c.allocated_cents.is_not(None)
        )
    ).all()
    return sum(int(r.allocated_cents) for r in rows)


def lifetime_approved_by_party(conn: Connection, fiscal_year: int) -> dict[str, int]:
    """`lifetime_approved_cents` of every party with an application in the fiscal year, in
    one grouped query (the allocation needs it for each applicant)."""
    applicants = select(apps_t.c.party_id).where(apps_t.c.fiscal_year == fiscal_year)
    rows = conn.execute(
        select(apps_t.c.party_id, func.sum(apps_t.c.allocated_cents))
        .where(apps_t.c.party_id.in_(applicants), apps_t.c.allocated_cents.is_not(None))
        .group_by(apps_t.c.party_id)
    ).all()
    return {party: int(total or 0) for party, total in rows}


def _committed(conn: Connection, fiscal_year: int) -> dict[str, Any] | None:
    row = conn.execute(select(allocs_t).where(allocs_t.c.id == str(fiscal_year))).mappings().first()
    return dict(row) if row is not None else None


def _facts(new: NewTechApplication, party: dict[str, Any], received: date) -> TechFacts:
    """The application's eligibility facts, defaulted from the party record."""
    us = new.us_employees if new.us_employees is not None else party.get("us_employees")
    nj = (
        new.nj_full_time_employees
        if new.nj_full_time_employees is not None
        else party.get("nj_full_time_employees")
    )
    formed: date | None = new.formed_on
    if formed is None and party.get("formed_on"):
        formed = date.fromisoformat(str(party["formed_on"]))
    missing = [
        name for name, value in zip(FACT_NAMES, (us, nj, formed), strict=True) if value is None
    ]
    if missing or us is None or nj is None or formed is None:
        raise InvalidRequestError(
            f"The eligibility facts {', '.join(missing)} are needed, in the application or "
            "on the party record.",
            {"missing": missing},
        )
    income = (
        new.operating_income_cents_by_year
        if new.operating_income_cents_by_year is not None
        else dict(party.get("operating_income_cents_by_year") or {})
    )
    return TechFacts(
        us_employees=int(us),
        nj_full_time_employees=int(nj),
        formed_on=formed,
        filed_on=received,
        operating_income_cents_by_year={int(y): int(v) for y, v in income.items()},
        parent_positive_noi=new.parent_positive_noi,
        consolidated_group_positive_noi=new.consolidated_group_positive_noi,
        hq_in_nj=new.hq_in_nj,
        has_protected_ip=new.has_protected_ip,
    )


def submit_application(
    uow: UnitOfWork, actor: Actor, ruleset: Ruleset, new: NewTechApplication
) -> dict[str, Any]:
    """TB-6 deadline, TB-1..TB-4 eligibility (recorded, not refused), TB-10 value,
    TB-5 lifetime room. Refusals raise before anything is appended."""
    actor.require(AUTHORITY, PARTICIPANT)
    actor.require_party(new.party_id, not_found("Party", "party_id", new.party_id))
    party = load_party(uow.conn, new.party_id)
    if new.seller_tax_regime not in REGIMES:
        raise InvalidRequestError("seller_tax_regime must be CBT or GIT.", {})
    receipt = tech_receipts.receipt_of(actor, new.received_on, new.receipt_reason)
    received = receipt.day
    fiscal_year = tech_caps.application_fiscal_year(received)
    if new.fiscal_year is not None:
        tech_caps.check_deadline(received, new.fiscal_year, ruleset)
    if _committed(uow.conn, fiscal_year) is not None:
        raise ApplicationDeadlinePassedError(
            f"The FY {fiscal_year} allocation has already been committed; its intake is closed.",
            {"fiscal_year": fiscal_year, "received_on": received.isoformat()},
        )
    factor = parse_ratio(new.allocation_factor)
    regime = TaxType(new.seller_tax_regime)
    tax_year = new.tax_year if new.tax_year is not None else received.year
    benefit = tech_benefit.benefit_cents(
        new.nol_cents, factor, regime, new.rnd_credit_cents, tax_year, ruleset
    )
    nol_part = benefit - new.rnd_credit_cents
    if benefit <= 0:
        raise InvalidRequestError("The application surrenders no benefit.", {"benefit_cents": 0})
    wanted = new.requested_cents if new.requested_cents is not None else benefit
    if wanted <= 0:
        raise InvalidRequestError("requested_cents must be positive.", {})
    approved = lifetime_approved_cents(uow.conn, new.party_id)
    if tech_caps.lifetime_room_cents(approved, ruleset) == 0:
        tech_caps.check_lifetime_cap(approved, wanted, ruleset)
    requested = tech_caps.clip_request(wanted, benefit, approved, ruleset)
    # TB-4(2): a caller's flag, or a profitable controller on record (with its path).
    parents = tech_parents.parent_findings(uow.conn, new.party_id, received, ruleset)
    facts = replace(
        _facts(new, party, received),
        parent_positive_noi=new.parent_positive_noi or bool(parents),
    )
    result = check_eligibility(facts, ruleset, received)
    reasons = [] if result.eligible else [INELIGIBLE, *result.reasons]
    reasons += [f"profitable_parent: {p.text}" for p in parents]
    zone = new.in_innovation_zone
    if zone is None:
        zone = bool(party.get("in_innovation_zone"))
    application_id = new_id("tapp")
    payload = {
        "application_id": application_id,
        "party_id": new.party_id,
        "fiscal_year": fiscal_year,
        **receipt.payload(),
        "nol_cents": new.nol_cents,
        "allocation_factor": new.allocation_factor.strip(),
        "seller_tax_regime": regime.value,
        "rnd_credit_cents": new.rnd_credit_cents,
        "in_innovation_zone": zone,
        "tax_year": tax_year,
        "benefit_cents": benefit,
        "nol_benefit_cents": nol_part,
        "asked_cents": wanted,
        "requested_cents": requested,
        "lifetime_approved_cents": approved,
        "eligible": result.eligible,
        "reasons": reasons,
        "messages": result.messages + [p.text for p in parents],
        "profitable_parents": [
            {
                "owner_party_id": p.owner_party_id,
                "years": list(p.profitable_years),
                "paths": [list(x) for x in p.paths],
            }
            for p in parents
        ],
        "facts": {
            "us_employees": facts.us_employees,
            "nj_full_time_employees": facts.nj_full_time_employees,
            "formed_on": facts.formed_on.isoformat(),
            "operating_income_cents_by_year": {
                str(y): v for y, v in facts.operating_income_cents_by_year.items()
            },
            "parent_positive_noi": facts.parent_positive_noi,
            "consolidated_group_positive_noi": facts.consolidated_group_positive_noi,
            "hq_in_nj": facts.hq_in_nj,
            "has_protected_ip": facts.has_protected_ip,
        },
        "ruleset": ruleset.name,
    }
    uow.append(
        f"tech-{application_id}", "TECH_APPLICATION_RECEIVED", payload, actor.label, new_stream=True
    )
    tech_receipts.record_receipt(uow, actor, application_id, receipt)
    return load_application(uow.conn, application_id)


def load_application(conn: Connection, application_id: str) -> dict[str, Any]:
    row = conn.execute(select(apps_t).where(apps_t.c.id == application_id)).mappings().first()
    if row is None:
        raise NotFoundError(
            f"TECH application {application_id} does not exist.",
            {"application_id": application_id},
        )
    return dict(row)


def get_application(conn: Connection, actor: Actor, application_id: str) -> dict[str, Any]:
    row = load_application(conn, application_id)
    actor.require_reader_of(
        row["party_id"], not_found("TECH application", "application_id", application_id)
    )
    return row


def list_applications(
    conn: Connection, actor: Actor, fiscal_year: int | None, party_id: str | None
) -> list[dict[str, Any]]:
    stmt = select(apps_t).order_by(apps_t.c.received_seq)
    if actor.role not in (AUTHORITY, AUDITOR):
        if party_id is not None and party_id != actor.party_id:
            actor.require_reader_of(party_id, not_found("Party", "party_id", party_id))
        party_id = actor.party_id or ""
    if party_id is not None:
        stmt = stmt.where(apps_t.c.party_id == party_id)
    if fiscal_year is not None:
        stmt = stmt.where(apps_t.c.fiscal_year == fiscal_year)
    return [dict(r) for r in conn.execute(stmt).mappings()]


# ---- allocation -----------------------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    application: dict[str, Any]
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


# What planning and the commit read of an application (not its JSON reasons and facts).
_PLAN_COLUMNS = (
    "id",
    "party_id",
    "fiscal_year",
    "received_on",
    "received_seq",
    "seller_tax_regime",
    "nol_cents",
    "rnd_credit_cents",
    "in_innovation_zone",
    "benefit_cents",
    "requested_cents",
    "eligible",
)


def _plan(conn: Connection, fiscal_year: int, ruleset: Ruleset) -> Plan:
    """The statute's allocation over the FY's eligible applications, in receipt order.

    T_i is clipped again here by the lifetime room as it stands now (TB-5), counting the
    party's earlier applications of this FY at their T_i, so allocations never breach it.
    """
    found = conn.execute(
        select(*(apps_t.c[name] for name in _PLAN_COLUMNS))
        .where(apps_t.c.fiscal_year == fiscal_year)
        .order_by(apps_t.c.received_seq)
    )
    # Plain tuples zipped with the names once: the simulator plans 10,000 rows per request.
    rows = [dict(zip(_PLAN_COLUMNS, r, strict=True)) for r in found]
    eligible = [r for r in rows if r["eligible"]]
    approved = lifetime_approved_by_party(conn, fiscal_year)
    used: dict[str, int] = {}
    applicants: list[Applicant] = []
    requests: dict[str, int] = {}
    for r in eligible:
        party = r["party_id"]
        if party not in used:
            used[party] = approved.get(party, 0)
        t_i = tech_caps.clip_request(r["requested_cents"], r["benefit_cents"], used[party], ruleset)
        used[party] += t_i
        key = f"{int(r['received_seq']):015d}"  # ties on the same day: earlier event first
        requests[key] = t_i
        applicants.append(Applicant(key, t_i, bool(r["in_innovation_zone"]), _receipt_key(r)))
    result = allocate(applicants, ruleset)
    items = [
        Planned(r, requests[a.id], result.amounts[a.id])
        for r, a in zip(eligible, applicants, strict=True)
    ]
    excluded = [r["id"] for r in rows if not r["eligible"]]
    return Plan(fiscal_year, result.triggered, result.total_cents, items, excluded, approved)


# The allocation simulator (services/simulator.py) plans exactly as preview and commit do.
plan_allocation = _plan


def _receipt_key(application: dict[str, Any]) -> str:
    """CMN-2 ties: receipt order, by the instant (UTC text sorts); before 0010, the day."""
    if application.get("received_at"):
        return tech_receipt.utc_key(datetime.fromisoformat(str(application["received_at"])))
    return f"{application['received_on']}T00:00:00"


def _allocations(plan: Plan, certificate_ids: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {
            "application_id": p.application["id"],
            "party_id": p.application["party_id"],
            "request_cents": p.request_cents,
            "allocated_cents": p.allocated_cents,
            "certificate_id": certificate_ids.get(p.application["id"]),
        }
        for p in plan.items
    ]


def _view(plan: Plan, certificate_ids: dict[str, str]) -> dict[str, Any]:
    return {
        "fiscal_year": plan.fiscal_year,
        "triggered": plan.triggered,
        "total_cents": plan.total_cents,
        "allocations": _allocations(plan, certificate_ids),
    }


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


def preview_allocation(
    conn: Connection, actor: Actor, fiscal_year: int, ruleset: Ruleset
) -> dict[str, Any]:
    """What the statute gives now; once committed, the committed allocation."""
    actor.require(AUTHORITY)
    done = committed_view(conn, fiscal_year)
    if done is not None:
        return done
    return _view(_plan(conn, fiscal_year, ruleset), {}) | {"committed": False}


def get_allocation(conn: Connection, actor: Actor, fiscal_year: int) -> dict[str, Any]:
    actor.require(AUTHORITY, AUDITOR)
    done = committed_view(conn, fiscal_year)
    if done is None:
        raise NotFoundError(
            f"No FY {fiscal_year} allocation has been committed.", {"fiscal_year": fiscal_year}
        )
    return done


def _split_benefit(allocated: int, application: dict[str, Any]) -> dict[str, int]:
    """The allocated amount split between its NOL-derived and R&D parts, pro rata."""
    benefit = int(application["benefit_cents"])
    nol = benefit - int(application["rnd_credit_cents"])
    nol_share = floor_int(Fraction(allocated * nol, benefit)) if benefit else 0
    return {"nol_derived_cents": nol_share, "rnd_credit_cents": allocated - nol_share}


def commit_allocation(
    uow: UnitOfWork, actor: Actor, fiscal_year: int, ruleset: Ruleset, today: date | None = None
) -> dict[str, Any]:
    """Run the allocation once (TB-14, TB-15): FY_ALLOCATION_RUN, then one TECH certificate
    per positive allocation (CERT_ISSUED, origin `allocation`), charging the TECH caps."""
    actor.require(AUTHORITY)
    if _committed(uow.conn, fiscal_year) is not None:
        raise ConflictError(
            f"The FY {fiscal_year} allocation has already been committed.",
            {"fiscal_year": fiscal_year},
        )
    close = tech_caps.deadline(fiscal_year, ruleset)
    if (today or clock.today()) <= close:
        raise RuleRefusedError(
            "intake_still_open",
            f"FY {fiscal_year} applications are received until {close.isoformat()}; "
            "the allocation runs after that deadline (TB-14).",
            {"fiscal_year": fiscal_year, "deadline": close.isoformat()},
        )
    plan = _plan(uow.conn, fiscal_year, ruleset)
    if not plan.items:
        raise InvalidRequestError(
            f"FY {fiscal_year} has no eligible TECH applications to allocate.",
            {"fiscal_year": fiscal_year},
        )
    fy_id, zone_id = cap_usage_ids(fiscal_year)
    already = uow.conn.execute(
        select(caps_t.c.used_cents).where(caps_t.c.id == fy_id)
    ).scalar_one_or_none()
    room = ruleset.tech_fy_cap_cents - int(already or 0)
    if plan.total_cents > room:
        raise CapExceededError(
            f"The allocation of {plan.total_cents} cents exceeds the FY {fiscal_year} room.",
            {"fiscal_year": fiscal_year, "remaining_cents": room, "total_cents": plan.total_cents},
        )
    zone_total = sum(p.allocated_cents for p in plan.items if p.application["in_innovation_zone"])
    zone_used = min(zone_total, ruleset.tech_zone_setaside_cents)
    cert_ids = {p.application["id"]: new_id("cert") for p in plan.items if p.allocated_cents > 0}
    payload = {
        "fiscal_year": fiscal_year,
        "triggered": plan.triggered,
        "total_cents": plan.total_cents,
        "ruleset": ruleset.name,
        "allocations": _allocations(plan, cert_ids),
        "excluded_application_ids": plan.excluded,
        "cap_usage": [
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
    }
    uow.append(f"tech-fy-{fiscal_year}", "FY_ALLOCATION_RUN", payload, actor.label)
    numbers = next_numbers(uow.conn, Program.TECH.value, fiscal_year)
    for p in plan.items:
        cert_id = cert_ids.get(p.application["id"])
        if cert_id is None:
            continue
        app = p.application
        cert = {
            "certificate_id": cert_id,
            "number": next(numbers),
            "program": Program.TECH.value,
            "holder_party_id": app["party_id"],
            "original_holder_party_id": app["party_id"],
            "parent_id": None,
            "root_id": cert_id,
            "origin": "allocation",
            "is_original": True,
            "face_cents": p.allocated_cents,
            "allowed_cents": p.allocated_cents,
            "queued_cents": 0,
            "status": "issued",
            "fiscal_year": fiscal_year,
            "tax_types": [TaxType.CBT.value, TaxType.GIT.value],
            "tax_periods": [],
            "credit_year": None,
            "carryover_last_year": None,
            "waiver_statement": "",
            "attributes": {
                "application_id": app["id"],
                "seller_tax_regime": app["seller_tax_regime"],
                "benefit_cents": app["benefit_cents"],
                "request_cents": p.request_cents,
                "in_innovation_zone": bool(app["in_innovation_zone"]),
                "benefit_split": _split_benefit(p.allocated_cents, app),
                "allocation_triggered": plan.triggered,
            },
            "ruleset": ruleset.name,
        }
        uow.append(f"certificate-{cert_id}", "CERT_ISSUED", cert, actor.label, new_stream=True)
    view = committed_view(uow.conn, fiscal_year)
    assert view is not None
    return view
