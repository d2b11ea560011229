"""Issuing certificates: BRRAG, UTH and digital media certificates under their caps (BR-1,
BR-2, BR-6, BR-12, UTH-7, UTH-12, UTH-13, DMQ-1..3). A digital media certificate is
admitted to its pool by `dm_pools`; the buckets it charges are the domain's (`buckets`).

Fiscal-year buckets:
- BRRAG: the `fiscal_year` of the request, the State FY of approval (AMB-4).
- UTH: each 1/10 installment is charged to the FY in which its tax period commences
  (UTH-13, AMB-13). A tax period is an integer year P beginning on the first day of the
  holder's tax-year month (`tax_period_start_month`, else the ruleset's
  `uth_period_start_month`, 1: a calendar-year filer's period P commences in FY P; a July
  filer's in FY P+1). Without `tax_periods`/`credit_year` the first period is
  `fiscal_year - 1`.
- DM_CBT / DM_GIT: the `fiscal_year` of the request is the FY in which the credited
  privilege period or taxable year commences (AMB-23).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from market.domain.errors import InvalidRequestError, TaxTypeNotAllowedError
from market.domain.events.certificates import CapCharged
from market.domain.programs import Program, TaxType, buyer_tax_types, waiver_statement
from market.domain.rules import brrag, uth
from market.domain.rules.activities import normalize_activity_ids
from market.domain.rules.buckets import LIFETIME, cap_id, uth_period_fiscal_year
from market.domain.rules.credit_use import carryover_last_year
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_views import certificate_view
from market.services.certificates.dm_pools import issue_dm
from market.services.certificates.issuance import Issuance, charge
from market.services.kernel import clock
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.errors import ValidationFailedError
from market.services.kernel.numbering import new_id, next_number
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import load_party

ISSUABLE = (Program.BRRAG, Program.UTH, Program.DM_GIT, Program.DM_CBT)


@dataclass(frozen=True)
class NewCertificate:
    program: str
    holder_party_id: str
    face_cents: int
    fiscal_year: int
    tax_types: list[str] | None = None
    tax_periods: list[int] | None = None
    credit_year: int | None = None
    creditable_activity_ids: list[str] | None = None  # PT-1 registry (AMB-56)
    # BRRAG awards (BR-1, BR-2, BR-6): required for BRRAG, refused for other programs.
    retained_jobs: int | None = None
    award_years: int | None = None
    nj_operations_since: date | None = None
    cannot_use_before_expiry: bool | None = None
    # UTH-13: the month the holder's tax year begins (None: the ruleset's, calendar years).
    tax_period_start_month: int | None = None


def parse_program(value: str) -> Program:
    try:
        return Program(value)
    except ValueError:
        raise InvalidRequestError(
            f"Unknown program {value!r}.", {"program": value, "known": [p.value for p in Program]}
        ) from None


def issue_certificate(
    uow: AbstractUnitOfWork, actor: Actor, new: NewCertificate, ruleset: Ruleset
) -> dict[str, Any]:
    actor.require(AUTHORITY)
    program = parse_program(new.program)
    if program not in ISSUABLE:
        raise InvalidRequestError(
            "TECH certificates are issued only by the fiscal-year allocation "
            "(POST /api/v1/tech/allocations/{fiscal_year}).",
            {"program": str(program)},
        )
    if new.face_cents <= 0:
        raise InvalidRequestError("face_cents must be positive.", {"face_cents": new.face_cents})
    activity_ids = normalize_activity_ids(new.creditable_activity_ids)
    if program is not Program.UTH and new.tax_period_start_month is not None:
        raise ValidationFailedError(
            "tax_period_start_month sets when a UTH installment's tax period begins (UTH-13).",
            {"program": program.value},
        )
    award_facts = (new.retained_jobs, new.award_years, new.nj_operations_since)
    if program is not Program.BRRAG and (
        any(f is not None for f in award_facts) or new.cannot_use_before_expiry is not None
    ):
        raise ValidationFailedError(
            "retained_jobs, award_years, nj_operations_since and cannot_use_before_expiry "
            "describe a BRRAG award only.",
            {"program": program.value},
        )
    holder = load_party(uow, new.holder_party_id)
    tax_types = _certificate_tax_types(program, new.tax_types)
    cert_id = new_id("crt")
    waiver = (
        ""
        if program is Program.BRRAG and not ruleset.brrag_print_waiver
        else waiver_statement(program, new.face_cents, str(holder["name"]))
    )
    # What `certificate_issued` is given; a cap or pool may still change it below.
    number = next_number(uow, program.value, new.fiscal_year)
    last_year = None
    if new.credit_year is not None and program is not Program.UTH:
        last_year = carryover_last_year(program, TaxType(tax_types[0]), new.credit_year, ruleset)
    award = brrag_award(new, ruleset) if program is Program.BRRAG else None
    attributes = {"approved_fiscal_year": new.fiscal_year, "waiver": bool(waiver)}
    issuance = Issuance(
        certificate_id=cert_id,
        number=number,
        program=program.value,
        holder_party_id=new.holder_party_id,
        face_cents=new.face_cents,
        fiscal_year=new.fiscal_year,
        tax_types=tax_types,
        tax_periods=list(new.tax_periods or []),
        credit_year=new.credit_year,
        carryover_last_year=last_year,
        waiver_statement=waiver,
        creditable_activity_ids=activity_ids,
        attributes=attributes if award is None else {**attributes, "brrag_award": award},
        ruleset=ruleset.name,
    )
    if program is Program.BRRAG:
        bucket = cap_id("BRRAG", new.fiscal_year)
        brrag.check_fy_cap(uow.caps.used_cents(bucket), new.face_cents, ruleset)
        uow.append(issuance.stream, issuance.event(), actor.label, new_stream=True)
        charged = charge("BRRAG", new.fiscal_year, new.face_cents, ruleset)
        uow.append(
            issuance.stream, CapCharged(certificate_id=cert_id, charges=[charged]), actor.label
        )
    elif program is Program.UTH:
        _issue_uth(uow, actor, new, issuance, ruleset)
    else:
        issue_dm(uow, actor, new, issuance, ruleset)
    return certificate_view(uow, cert_id)


def brrag_award(new: NewCertificate, ruleset: Ruleset) -> dict[str, object]:
    """BR-1, BR-2, BR-6 on the business date: what the BRRAG certificate records."""
    facts = {
        "retained_jobs": new.retained_jobs,
        "nj_operations_since": new.nj_operations_since,
        "cannot_use_before_expiry": new.cannot_use_before_expiry,
    }
    missing = [name for name, value in facts.items() if value is None]
    if missing or new.retained_jobs is None or new.nj_operations_since is None:
        raise ValidationFailedError(
            f"A BRRAG certificate needs the award's {', '.join(missing)} (BR-1, BR-2, BR-6).",
            {"missing": missing},
        )
    award = brrag.BrragAward(
        retained_jobs=new.retained_jobs,
        award_years=new.award_years or 1,
        nj_operations_since=new.nj_operations_since,
        cannot_use_before_expiry=bool(new.cannot_use_before_expiry),
    )
    return brrag.check_award(new.face_cents, award, clock.today(), ruleset)


def _certificate_tax_types(program: Program, requested: list[str] | None) -> list[str]:
    allowed = sorted(t.value for t in buyer_tax_types(program))
    if requested is None:
        return allowed
    chosen = sorted(set(requested))
    if not chosen:
        raise InvalidRequestError("tax_types must not be empty.", {"tax_types": requested})
    refused = [t for t in chosen if t not in allowed]
    if refused:
        raise TaxTypeNotAllowedError(
            f"{program} certificates may not be used against {', '.join(refused)}.",
            {"program": program.value, "tax_types": refused, "allowed": allowed},
        )
    return chosen


def _uth_first_period(new: NewCertificate) -> int:
    periods = list(new.tax_periods or [])
    if not periods:
        return new.credit_year if new.credit_year is not None else new.fiscal_year - 1
    first = periods[0]
    if periods != list(range(first, first + len(periods))):
        raise InvalidRequestError(
            "For UTH, tax_periods is the first credited tax period, or the consecutive "
            "periods of all the installments.",
            {"tax_periods": periods},
        )
    return first


def _issue_uth(
    uow: AbstractUnitOfWork,
    actor: Actor,
    new: NewCertificate,
    issuance: Issuance,
    ruleset: Ruleset,
) -> None:
    first = _uth_first_period(new)
    tranches = uth.installments(new.face_cents, first, ruleset)
    if new.tax_periods and len(new.tax_periods) not in (1, len(tranches)):
        raise InvalidRequestError(
            f"A UTH certificate covers {len(tranches)} installments; give the first tax "
            f"period or all {len(tranches)}.",
            {"tax_periods": list(new.tax_periods)},
        )
    issued_on = clock.today()
    fiscal_years = {
        period: uth_period_fiscal_year(period, ruleset, issued_on, new.tax_period_start_month)
        for period, _ in tranches
    }
    per_fy: dict[int, int] = defaultdict(int)
    for period, cents in tranches:
        per_fy[fiscal_years[period]] += cents
    for fy, cents in sorted(per_fy.items()):
        uth.check_fy_cap(uow.caps.used_cents(cap_id("UTH", fy)), cents, ruleset)
    uth.check_cumulative_cap(
        uow.caps.used_cents(cap_id("UTH_CUMULATIVE", LIFETIME)), new.face_cents, ruleset
    )
    issuance = replace(
        issuance,
        tax_periods=[
            {
                "period": period,
                "fiscal_year": fiscal_years[period],
                "cents": cents,
                "unsold_cents": cents,
                "carryforward_last_period": uth.carryforward_last_period(period, ruleset),
            }
            for period, cents in tranches
        ],
        credit_year=first if issuance.credit_year is None else issuance.credit_year,
    )
    uow.append(issuance.stream, issuance.event(), actor.label, new_stream=True)
    charges = [charge("UTH", fy, cents, ruleset) for fy, cents in sorted(per_fy.items())]
    charges.append(charge("UTH_CUMULATIVE", LIFETIME, new.face_cents, ruleset))
    capped = CapCharged(certificate_id=issuance.certificate_id, charges=charges)
    uow.append(issuance.stream, capped, actor.label)
