"""A TECH application's administrative steps (ADM-1, ADM-5..ADM-8, ADM-12): submit,
preliminary approval with conditions, forward to the Division of Taxation, Taxation's
valuation (its tax certificate). Each is refused out of order (`step_out_of_order`); where
the ADM rules are in force on the business date its gates hold too: the package
(`exhibit_missing`), the fee (`fees_unpaid`), the tax clearance and the ADM-6 lock."""

from __future__ import annotations

from typing import Literal

from market.adapters.repositories.casefiles import application_on_file
from market.domain.casefile_errors import StepOutOfOrderError
from market.domain.commands.casefiles import InvoiceFee, RecordTaxCertificate
from market.domain.errors import InvalidRequestError
from market.domain.events.casefiles import (
    TechApplicationSubmitted,
    TechForwardedToTaxation,
    TechPreliminaryApproved,
    TechTaxCertificateRecorded,
)
from market.domain.model.case_file import ApplicationOnFile, TechCaseFile
from market.domain.model.tech_application import TechApplication
from market.domain.rules import adm_checklist, adm_fees
from market.domain.rulesets import Ruleset, get_ruleset
from market.services.casefiles import application_lock, checklists, clearances, fees
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.clock import today
from market.services.kernel.errors import not_found
from market.services.kernel.uow import AbstractUnitOfWork

# A step's column in `tech_case_files`: the day (or number) it was recorded, None before.
StepColumn = Literal["submitted_on", "preliminary_on", "forwarded_on", "tax_certificate_number"]


def _load(uow: AbstractUnitOfWork, actor: Actor, application_id: str) -> ApplicationOnFile:
    row = uow.tech_applications.get(application_id)
    hidden = not_found("TECH application", "application_id", application_id)
    if row is None:
        raise hidden
    app = application_on_file(row)
    actor.require_reader_of(app.party_id, hidden)
    return app


def _case(
    uow: AbstractUnitOfWork, application_id: str, after: StepColumn, step: str
) -> TechCaseFile:
    case = uow.tech_case_files.load(application_id)
    if case is None or (after != "submitted_on" and case[after] is None):
        raise StepOutOfOrderError(
            f"{step} comes after the application's {after.removesuffix('_on')} step.",
            {"application_id": application_id, "needs": after.removesuffix("_on")},
        )
    return case


def _once(case: TechCaseFile, column: StepColumn, step: str) -> None:
    if case[column] is not None:
        raise StepOutOfOrderError(f"{step} was already recorded.", {"step": step})


def invoice_application_fee(
    uow: AbstractUnitOfWork, actor: Actor, app: ApplicationOnFile, ruleset: Ruleset
) -> None:
    """ADM-1, at intake, where the ADM rules are in force."""
    if ruleset.adm_in_force(today()):
        bill = adm_fees.tech_application_fee(ruleset)
        fees.invoice(uow, actor, InvoiceFee(app.party_id, app.id, bill), ruleset)


def submit(uow: AbstractUnitOfWork, actor: Actor, application_id: str) -> ApplicationOnFile:
    actor.require(AUTHORITY, PARTICIPANT)
    app = _load(uow, actor, application_id)
    actor.require_party(app.party_id)
    if uow.tech_case_files.get(application_id) is not None:
        raise StepOutOfOrderError("The application was already submitted.", {"step": "submit"})
    ruleset, on = get_ruleset(app.ruleset), today()
    items = checklists.tech_items(uow, app, ruleset)
    if ruleset.adm_in_force(on):
        application_lock.check_open(uow, application_id)
        adm_checklist.require(items, (adm_checklist.SUBMISSION,), "Submission")
        fees.require_paid(uow, [application_id], "Submission")
        if adm_checklist.SUBMISSION in ruleset.adm_clearance_steps:
            clearances.require_valid(uow, app.party_id, "TECH", on, ruleset)
    ids = [d for i in items if i.stage == adm_checklist.SUBMISSION for d in i.document_ids[-1:]]
    uow.append(
        TechApplication.stream_of(application_id),
        TechApplicationSubmitted(
            application_id=application_id,
            party_id=app.party_id,
            submitted_on=on.isoformat(),
            document_ids=ids,
        ),
        actor.label,
    )
    return app


def preliminary_approval(
    uow: AbstractUnitOfWork, actor: Actor, application_id: str, conditions: list[str]
) -> ApplicationOnFile:
    actor.require(AUTHORITY)
    app = _load(uow, actor, application_id)
    case = _case(uow, application_id, "submitted_on", "Preliminary approval")
    _once(case, "preliminary_on", "Preliminary approval")
    cleaned = [c.strip()[:500] for c in conditions if c.strip()]
    uow.append(
        TechApplication.stream_of(application_id),
        TechPreliminaryApproved(
            application_id=application_id,
            party_id=app.party_id,
            approved_on=today().isoformat(),
            conditions=cleaned,
        ),
        actor.label,
    )
    return app


def forward(uow: AbstractUnitOfWork, actor: Actor, application_id: str) -> ApplicationOnFile:
    actor.require(AUTHORITY)
    app = _load(uow, actor, application_id)
    case = _case(uow, application_id, "preliminary_on", "Forwarding to Taxation")
    _once(case, "forwarded_on", "Forwarding to Taxation")
    ruleset = get_ruleset(app.ruleset)
    items = checklists.tech_items(uow, app, ruleset)
    if ruleset.adm_in_force(today()):
        adm_checklist.require(items, (adm_checklist.PRELIMINARY,), "Forwarding to Taxation")
    ids = [d for i in items if i.stage == adm_checklist.PRELIMINARY for d in i.document_ids[-1:]]
    uow.append(
        TechApplication.stream_of(application_id),
        TechForwardedToTaxation(
            application_id=application_id,
            party_id=app.party_id,
            forwarded_on=today().isoformat(),
            document_ids=ids,
        ),
        actor.label,
    )
    return app


def tax_certificate(
    uow: AbstractUnitOfWork, actor: Actor, command: RecordTaxCertificate
) -> ApplicationOnFile:
    """ADM-8: Taxation's valuation; ADM-2's approval fee is invoiced on it."""
    application_id, benefit_cents, certificate_number, issued_on = (
        command.application_id,
        command.benefit_cents,
        command.certificate_number,
        command.issued_on,
    )
    actor.require(AUTHORITY)
    app = _load(uow, actor, application_id)
    case = _case(uow, application_id, "forwarded_on", "Taxation's tax certificate")
    _once(case, "tax_certificate_number", "Taxation's tax certificate")
    if benefit_cents <= 0:
        raise InvalidRequestError("benefit_cents must be positive.", {"benefit_cents": 0})
    if not certificate_number.strip():
        raise InvalidRequestError("certificate_number is required.", {})
    if issued_on > today() or issued_on.isoformat() < str(case["forwarded_on"]):
        raise InvalidRequestError(
            "issued_on falls between the forwarding and today.",
            {"issued_on": issued_on.isoformat(), "forwarded_on": case["forwarded_on"]},
        )
    uow.append(
        TechApplication.stream_of(application_id),
        TechTaxCertificateRecorded(
            application_id=application_id,
            party_id=app.party_id,
            benefit_cents=benefit_cents,
            certificate_number=certificate_number.strip()[:100],
            issued_on=issued_on.isoformat(),
        ),
        actor.label,
    )
    ruleset = get_ruleset(app.ruleset)
    if ruleset.adm_in_force(today()):
        paid = fees.paid_cents(uow, application_id, adm_fees.TECH_APPLICATION)
        bill = adm_fees.tech_approval_fee(benefit_cents, paid, ruleset)
        if bill is not None:
            fees.invoice(uow, actor, InvoiceFee(app.party_id, application_id, bill), ruleset)
    return app
