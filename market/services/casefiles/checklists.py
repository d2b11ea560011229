"""The checklist of a TECH application and of a transfer (PRODUCT.md 9.1): per stage, which
exhibits are required, which are filed (their ids) and which are missing, and `next_step`
saying in words what comes next and what it lacks."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from market.adapters.repositories.casefiles import application_on_file
from market.domain.model.case_file import ApplicationOnFile, TechCaseFile, TransferOnFile
from market.domain.rules import adm_checklist
from market.domain.rules.adm_checklist import ChecklistItem
from market.domain.rulesets import Ruleset, get_ruleset
from market.services.casefiles import documents, fees
from market.services.kernel.clock import today
from market.services.kernel.reads import Source, repositories


def sold_prior_year(source: Source, party_id: str, year: int) -> bool:
    """ADM-5, ADM-7: whether the seller sold (an approved transfer) the year before."""
    prior = str(year - 1)
    return any(
        str(t.get("exchange_date") or "").startswith(prior)
        for t in repositories(source).transfers.where(seller_party_id=party_id, status="approved")
    )


def tech_items(source: Source, app: ApplicationOnFile, ruleset: Ruleset) -> list[ChecklistItem]:
    sold = sold_prior_year(source, app.party_id, app.received_on.year)
    kinds = adm_checklist.tech_kinds(ruleset, sold)
    filed = documents.filed_by_kind(source, "tech_application", app.id)
    return adm_checklist.checklist(kinds, filed)


def transfer_items(source: Source, t: TransferOnFile, ruleset: Ruleset) -> list[ChecklistItem]:
    kinds = adm_checklist.transfer_kinds(ruleset, t.program)
    filed = documents.filed_by_kind(source, "transfer", t.id)
    return adm_checklist.checklist(kinds, filed)


def _missing_words(items: list[ChecklistItem], stages: tuple[str, ...]) -> str:
    return ", ".join(adm_checklist.words(k) for k in adm_checklist.missing(items, stages))


def tech_next_step(source: Source, app: ApplicationOnFile, items: list[ChecklistItem]) -> str:
    case = repositories(source).tech_case_files.load(app.id)
    if case is None:
        lacking = _missing_words(items, (adm_checklist.SUBMISSION,))
        owed = fees.unpaid(source, [app.id])
        parts = [f"file {lacking}" if lacking else "", "pay the application fee" if owed else ""]
        todo = " and ".join(p for p in parts if p)
        return f"The seller {todo}, then submits." if todo else "The seller submits it."
    if case["preliminary_on"] is None:
        return "The Authority reviews it and grants preliminary approval with its conditions."
    if case["forwarded_on"] is None:
        lacking = _missing_words(items, (adm_checklist.PRELIMINARY,))
        if lacking:
            return f"The seller files {lacking}; then the Authority forwards it to Taxation."
        return "The Authority forwards it to the Division of Taxation."
    if case["tax_certificate_number"] is None:
        return "The Division of Taxation values the benefit and issues its tax certificate."
    return "Final approval at closing: the sale's transfer is approved by the Authority."


def transfer_next_step(source: Source, t: TransferOnFile, items: list[ChecklistItem]) -> str:
    if t.status in ("approved", "rejected"):
        return f"None: the transfer is {t.status}."
    lacking = _missing_words(items, (adm_checklist.FINAL,))
    owed = fees.unpaid(source, [t.id])
    parts = [f"file {lacking}" if lacking else "", "pay the fees due" if owed else ""]
    todo = " and ".join(p for p in parts if p)
    if t.status == "awaiting_buyer":
        return "The buyer confirms the transfer" + (f"; the seller must {todo}." if todo else ".")
    return f"The seller must {todo}." if todo else "The Authority approves or rejects it."


class CaseView(TypedDict):
    """The fields a TECH application's answer gains."""

    checklist: list[dict[str, object]]
    case_file: TechCaseFile | None
    next_step: NotRequired[str]


class TransferCaseView(TypedDict):
    """The fields a transfer's answer gains."""

    checklist: list[dict[str, object]]
    next_step: NotRequired[str]


def for_application(source: Source, app: ApplicationOnFile) -> CaseView:
    """The fields a TECH application's answer gains: `checklist`, `case_file` and, where
    the ADM rules are in force (or the case has begun), `next_step` (else the deal's
    own next step stands, as before)."""
    ruleset = get_ruleset(app.ruleset)
    items = tech_items(source, app, ruleset)
    case = repositories(source).tech_case_files.load(app.id)
    view: CaseView = {"checklist": [i.as_dict() for i in items], "case_file": case}
    if ruleset.adm_in_force(today()) or case is not None:
        view["next_step"] = tech_next_step(source, app, items)
    return view


def for_transfer(source: Source, t: TransferOnFile) -> TransferCaseView:
    ruleset = get_ruleset(t.ruleset)
    items = transfer_items(source, t, ruleset)
    view: TransferCaseView = {"checklist": [i.as_dict() for i in items]}
    if ruleset.adm_in_force(today()):
        view["next_step"] = transfer_next_step(source, t, items)
    return view


def with_case(source: Source, app: dict[str, Any]) -> dict[str, Any]:
    """A TECH application's answer (its row, as the tech context reads it) with its case."""
    return {**app, **for_application(source, application_on_file(app))}
