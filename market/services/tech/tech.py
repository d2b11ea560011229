"""TECH surrender applications: intake, eligibility and reads (TB-1..TB-9, AMB-30/31/40/48).

Every rule is the domain's: eligibility (`tech_eligibility`), the benefit value
(`tech_benefit`), the lifetime cap and deadline (`tech_caps`). This module loads state,
asks the domain and appends events.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime

from market.adapters.repositories.casefiles import application_on_file
from market.adapters.repositories.parties_models import PartyRow
from market.adapters.repositories.tech_models import TechApplicationRow
from market.domain.errors import (
    ApplicationDeadlinePassedError,
    InvalidRequestError,
)
from market.domain.events.tech import TechApplicationReceived
from market.domain.model.tech_application import TechApplication
from market.domain.programs import TaxType
from market.domain.rules import tech_benefit, tech_caps
from market.domain.rules.tech_eligibility import TechFacts, check_eligibility
from market.domain.rulesets import Ruleset
from market.domain.values import parse_ratio
from market.services.casefiles import tech_steps
from market.services.kernel.actor import AUDITOR, AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.errors import NotFoundError, not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import party_record
from market.services.tech import tech_parents, tech_receipts

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


def lifetime_approved_cents(source: Source, party_id: str) -> int:
    """AMB-40: approved (allocated) surrender amounts of the party's applications."""
    return repositories(source).tech_applications.lifetime_approved_cents(party_id)


def lifetime_approved_by_party(source: Source, fiscal_year: int) -> dict[str, int]:
    """`lifetime_approved_cents` of every party with an application in the fiscal year (in
    one grouped query on the database: the allocation needs it for each applicant)."""
    return repositories(source).tech_applications.lifetime_approved_by_party(fiscal_year)


def _facts(new: NewTechApplication, party: PartyRow, received: date) -> TechFacts:
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
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, new: NewTechApplication
) -> TechApplicationRow:
    """TB-6 deadline, TB-1..TB-4 eligibility (recorded, not refused), TB-10 value,
    TB-5 lifetime room. Refusals raise before anything is appended."""
    actor.require(AUTHORITY, PARTICIPANT)
    actor.require_party(new.party_id, not_found("Party", "party_id", new.party_id))
    party = party_record(uow, new.party_id)
    if new.seller_tax_regime not in REGIMES:
        raise InvalidRequestError("seller_tax_regime must be CBT or GIT.", {})
    receipt = tech_receipts.receipt_of(actor, new.received_on, new.receipt_reason)
    received = receipt.day
    fiscal_year = tech_caps.application_fiscal_year(received)
    if new.fiscal_year is not None:
        tech_caps.check_deadline(received, new.fiscal_year, ruleset)
    if uow.tech_allocations.of_year(fiscal_year) is not None:
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
    approved = uow.tech_applications.lifetime_approved_cents(new.party_id)
    if tech_caps.lifetime_room_cents(approved, ruleset) == 0:
        tech_caps.check_lifetime_cap(approved, wanted, ruleset)
    requested = tech_caps.clip_request(wanted, benefit, approved, ruleset)
    # TB-4(2): a caller's flag, or a profitable controller on record (with its path).
    parents = tech_parents.parent_findings(uow, new.party_id, received, ruleset)
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
    received_event = TechApplicationReceived(
        application_id=application_id,
        party_id=new.party_id,
        fiscal_year=fiscal_year,
        **receipt.payload(),
        nol_cents=new.nol_cents,
        allocation_factor=new.allocation_factor.strip(),
        seller_tax_regime=regime.value,
        rnd_credit_cents=new.rnd_credit_cents,
        in_innovation_zone=zone,
        tax_year=tax_year,
        benefit_cents=benefit,
        nol_benefit_cents=nol_part,
        asked_cents=wanted,
        requested_cents=requested,
        lifetime_approved_cents=approved,
        eligible=result.eligible,
        reasons=reasons,
        messages=result.messages + [p.text for p in parents],
        profitable_parents=[
            {
                "owner_party_id": p.owner_party_id,
                "years": list(p.profitable_years),
                "paths": [list(x) for x in p.paths],
            }
            for p in parents
        ],
        facts={
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
        ruleset=ruleset.name,
    )
    stream = TechApplication.stream_of(application_id)
    uow.append(stream, received_event, actor.label, new_stream=True)
    tech_receipts.record_receipt(uow, actor, application_id, receipt)
    row = load_application(uow, application_id)
    tech_steps.invoice_application_fee(uow, actor, application_on_file(row), ruleset)  # ADM-1
    return row


def load_application(source: Source, application_id: str) -> TechApplicationRow:
    row = repositories(source).tech_applications.record(application_id)
    if row is None:
        raise NotFoundError(
            f"TECH application {application_id} does not exist.",
            {"application_id": application_id},
        )
    return TechApplicationRow(**row)


def get_application(source: Source, actor: Actor, application_id: str) -> TechApplicationRow:
    row = load_application(source, application_id)
    actor.require_reader_of(
        row["party_id"], not_found("TECH application", "application_id", application_id)
    )
    return row


def list_applications(
    source: Source, actor: Actor, fiscal_year: int | None, party_id: str | None
) -> list[TechApplicationRow]:
    if actor.role not in (AUTHORITY, AUDITOR):
        if party_id is not None and party_id != actor.party_id:
            actor.require_reader_of(party_id, not_found("Party", "party_id", party_id))
        party_id = actor.party_id or ""
    where: dict[str, object] = {}
    if party_id is not None:
        where["party_id"] = party_id
    if fiscal_year is not None:
        where["fiscal_year"] = fiscal_year
    rows = repositories(source).tech_applications.in_receipt_order(**where)
    return [TechApplicationRow(**r) for r in rows]
