"""Using certificates on returns: the credit application and its limits (CMN-4(d), CMN-8,
DMG-5/6, DMC-6, UTH-10/24, TB-27, PT-2, AMB-45/52/54).

The limits are the domain's (`credit_use`, `pass_through`, `programs`); this module loads
the certificate, asks the domain and appends the events. PT-1 is `credit_activities`'.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from market.adapters.queries import typed_row
from market.domain.errors import (
    InsufficientBalanceError,
    InvalidRequestError,
    TaxTypeNotAllowedError,
)
from market.domain.events.returns import CreditApplied
from market.domain.model import Certificate, Party, Tranche
from market.domain.programs import TaxType, check_tax_type
from market.domain.rules import (
    carryover,
    credit_use,
    individuals,
    pass_through,
    section_40,
    uth_held_tranches,
)
from market.domain.rules.certificate_status import certificate_status
from market.domain.rules.sale_window import CarryforwardExpiredError
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_rules import carryover_window, check_not_waived
from market.services.certificates.certificate_views import certificate_record, party_record
from market.services.certificates.credit_activities import check_activities_unused
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.errors import not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork


class Section40Figures(TypedDict):
    """PT-2: the figures of the §40 ratio."""

    entity_income_cents: int
    category_amounts_cents: list[int]
    other_categories_net_cents: list[int]


class CreditLimits(TypedDict):
    """The limits CREDIT_APPLIED records beside the figures it was given."""

    declared_other_credits_cents: int
    ledger_other_credits_cents: int
    cap40_cents: int | None
    carryover_last_year: int | None
    # PT-1: what the duplicate-use check compared (absent from older events).
    creditable_activity_ids: NotRequired[list[str]]
    pt1_activity_scope: NotRequired[str]
    uth_withheld_cents: NotRequired[dict[str, int]]


class CreditApplicationRecord(TypedDict):
    """A `credit_applications` row: a use of a certificate on a return."""

    id: str
    certificate_id: str
    party_id: str
    tax_type: str
    tax_year: int
    liability_cents: int
    other_credits_cents: int
    statutory_minimum_cents: int
    requested_cents: int
    applied_cents: int
    carried_forward_cents: int
    limited_by: str
    limits: CreditLimits
    ruleset: str


@dataclass(frozen=True)
class NewCreditApplication:
    certificate_id: str
    tax_type: str
    tax_year: int
    liability_cents: int
    amount_cents: int
    other_credits_cents: int = 0
    statutory_minimum_cents: int | None = None
    cap40_cents: int | None = None
    # PT-2: the figures of the §40 ratio (entity_income_cents, category_amounts_cents,
    # other_categories_net_cents), when cap40_cents is not given.
    section_40: Section40Figures | None = None


def certificate_stream(certificate_id: str) -> str:
    return f"certificate-{certificate_id}"


def section_40_cap(
    cert: Certificate,
    holder: Party,
    new: NewCreditApplication,
    tax_type: TaxType,
    ruleset: Ruleset,
) -> int | None:
    """PT-2 / PT-7: the most GIT liability the credit may be applied against. Given as
    `cap40_cents`, or computed from the application's `section_40` figures; every GIT use
    of a credit §40 covers needs one or the other (never skipped), but an individual
    buying directly under the Director's exception has ratio 1 (AMB-53)."""
    direct = cert.origin != "pass_through" and individuals.buys_directly(
        holder.entity_type, bool(holder.director_exception), ruleset
    )
    given = new.cap40_cents is not None or new.section_40 is not None
    basis = section_40.section_40_basis(cert.program, tax_type, given, direct)
    if basis == "ratio_one":
        return new.liability_cents
    if basis == "none" or new.cap40_cents is not None or new.section_40 is None:
        return new.cap40_cents
    figures = new.section_40
    ratio = pass_through.liability_share_ratio(
        figures["entity_income_cents"],
        list(figures["category_amounts_cents"]),
        list(figures["other_categories_net_cents"]),
        ruleset,
    )
    return pass_through.cap40_cents(ratio, new.liability_cents)


_WITHHELD_WORDS = {
    "frozen": "the unapplied credit of tax period {periods} is frozen: the Authority's annual "
    "review reduced or forfeited that installment after it was transferred, and an "
    "EDA/Director determination is pending (UTH-26)",
    "conditional": "tax period {periods} was bought as a conditional tranche and the "
    "Authority has not reviewed it yet (UTH-27, AMB-18)",
    "not_yet_usable": "the installment of tax period {periods} is first usable on a return "
    "for the tax year in which that period ends (AMB-15)",
    "expired": "the installment of tax period {periods} was carried forward for its 20 "
    "successive periods and has expired (UTH-10)",
}


def _usable_balance(
    cert: Certificate, tranches: list[Tranche], balance: int, tax_year: int
) -> tuple[int, dict[str, tuple[int, list[int]]]]:
    """The balance less what tranches not usable in `tax_year` withhold
    (uth_held_tranches.withheld), and those; refused, naming every reason, when they
    withhold all that is left, with the code of the first (`tranche_at_risk`,
    `tranche_not_reviewed`, `tranche_not_yet_usable`, `carryforward_expired`)."""
    held = uth_held_tranches.withheld(tranches, tax_year)
    available = max(0, balance - sum(cents for cents, _ in held.values()))
    if available or not held:
        return available, held
    details: dict[str, Any] = {
        "certificate_id": cert.id,
        "balance_cents": balance,
        "tax_year": tax_year,
    }
    reasons = []
    for state in uth_held_tranches.WITHHELD:
        if state in held:
            cents, periods = held[state]
            details |= {f"{state}_cents": cents, f"{state}_periods": periods}
            words = ", ".join(str(p) for p in periods)
            reasons.append(_WITHHELD_WORDS[state].format(periods=words))
    first = next(state for state in uth_held_tranches.WITHHELD if state in held)
    raise uth_held_tranches.WITHHELD[first](
        "Nothing on this certificate can be applied for tax year "
        f"{tax_year}: " + "; ".join(reasons) + ".",
        details | {"tax_periods": held[first][1]},
    )


def apply_to_return(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, new: NewCreditApplication
) -> CreditApplicationRecord:
    """CREDIT_APPLIED: the smallest limit binds; the rest stays on the certificate."""
    actor.require(AUTHORITY, PARTICIPANT)
    cert = certificate_record(uow, new.certificate_id)
    actor.require_party(
        cert.holder_party_id, not_found("Certificate", "certificate_id", new.certificate_id)
    )
    try:
        tax_type = TaxType(new.tax_type)
    except ValueError:
        raise InvalidRequestError("tax_type must be CBT, GIT or IPT.", {}) from None
    check_tax_type(cert.program, tax_type)
    holder = party_record(uow, cert.holder_party_id)
    if tax_type.value not in holder.tax_types:
        raise TaxTypeNotAllowedError(
            f"The holder is not registered for {tax_type}; it files no such return.",
            {"tax_type": tax_type.value, "holder_tax_types": sorted(holder.tax_types)},
        )
    check_not_waived(cert)
    pass_through.check_direct_git_use(holder.entity_type, tax_type.value)
    last = carryover_window(cert, tax_type, ruleset)
    if carryover.is_expired(last, new.tax_year):
        raise CarryforwardExpiredError(
            f"This credit could be carried forward to tax year {last} at the latest.",
            {"certificate_id": cert.id, "carryover_last_year": last, "tax_year": new.tax_year},
        )
    if cert.credit_year is not None and new.tax_year < cert.credit_year:
        raise InvalidRequestError(
            f"The credit is first usable in tax year {cert.credit_year}.",
            {"credit_year": cert.credit_year, "tax_year": new.tax_year},
        )
    balance = cert.balance_cents
    if balance == 0:
        raise InsufficientBalanceError(
            "Nothing on this certificate is usable (queued amounts are not).",
            {"balance_cents": 0, "queued_cents": cert.queued_cents},
        )
    tranches = cert.uth_tranches()
    available, withheld = balance, dict[str, tuple[int, list[int]]]()
    if tranches is not None:
        available, withheld = _usable_balance(cert, tranches, balance, new.tax_year)
    activity_ids = check_activities_unused(uow, cert, holder.id, ruleset)
    statutory_minimum = new.statutory_minimum_cents
    if statutory_minimum is None:
        statutory_minimum = ruleset.cbt_statutory_minimum_by_year.get(new.tax_year, 0)
    cap40 = section_40_cap(cert, holder, new, tax_type, ruleset)
    earlier = uow.credit_applications.applied_cents(holder.id, tax_type.value, new.tax_year)
    other = new.other_credits_cents + earlier
    use = credit_use.apply_credit(
        credit_use.CreditLimitInput(
            program=cert.program,
            tax_type=tax_type,
            available_cents=available,
            liability_cents=new.liability_cents,
            other_credits_cents=other,
            statutory_minimum_cents=statutory_minimum,
            cap40_cents=cap40,
        ),
        new.amount_cents,
        ruleset,
    )
    application_id = new_id("capp")
    after = balance - use.applied_cents
    limits = CreditLimits(
        declared_other_credits_cents=new.other_credits_cents,
        ledger_other_credits_cents=earlier,
        cap40_cents=cap40,
        carryover_last_year=last,
        creditable_activity_ids=activity_ids,
        pt1_activity_scope=ruleset.pt1_activity_scope,
    )
    tax_periods = None
    if tranches is not None:
        limits["uth_withheld_cents"] = {k: v[0] for k, v in withheld.items()}
        tax_periods = uth_held_tranches.consume_tranches(tranches, use.applied_cents, new.tax_year)
    applied = CreditApplied(
        application_id=application_id,
        certificate_id=cert.id,
        party_id=holder.id,
        tax_type=tax_type.value,
        tax_year=new.tax_year,
        liability_cents=new.liability_cents,
        other_credits_cents=other,
        statutory_minimum_cents=statutory_minimum,
        requested_cents=new.amount_cents,
        applied_cents=use.applied_cents,
        carried_forward_cents=use.carried_forward_cents,
        limited_by=use.limited_by,
        limits=limits,
        certificate_status=certificate_status(cert.allowed_cents, after, cert.queued_cents),
        ruleset=ruleset.name,
        tax_periods=tax_periods,
    )
    uow.append(cert.stream, applied, actor.label)
    return load_credit_application(uow, application_id)


def load_credit_application(source: Source, application_id: str) -> CreditApplicationRecord:
    row = repositories(source).credit_applications.get(application_id)
    if row is None:
        raise LookupError(f"credit_applications {application_id} was not projected")
    return credit_application_record(row)


def credit_application_record(row: Mapping[str, Any]) -> CreditApplicationRecord:
    """A `credit_applications` row as its typed record."""
    return typed_row(CreditApplicationRecord, row)
