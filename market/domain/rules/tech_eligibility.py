"""Seller eligibility for the TECH program (TB-1, TB-2, TB-3, TB-4, TB-23,
AMB-35, AMB-36, AMB-37, AMB-38, AMB-39, AMB-50).

Each failed test yields a stable reason code; the result lists every failure, not only
the first, so the Authority sees the whole picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from market.domain.errors import IneligibleSellerError
from market.domain.rulesets import Ruleset
from market.domain.values import add_years, fiscal_year, fiscal_year_end

REASON_TEXT: dict[str, str] = {
    "too_many_us_employees": "has {us} employees in the United States; fewer than {limit} needed",
    "too_few_nj_employees": "has {nj} full-time employees in New Jersey; at least {need} needed",
    "positive_operating_income": "had positive net operating income in a previous full year",
    "profitable_parent": "is at least 50% owned or controlled by a profitable corporation",
    "profitable_consolidated_group": "belongs to a profitable federal consolidated group",
    "no_nj_headquarters": "has no headquarters or base of operations in New Jersey",
    "no_protected_ip": "owns, has filed for or licenses no protected proprietary IP",
    "not_emerging": "is not an emerging technology or biotechnology business",
    "no_continuing_operation_certification": (
        "has not certified it operates as, and intends to remain, a new or expanding business"
    ),
}


@dataclass(frozen=True)
class TechFacts:
    us_employees: int
    nj_full_time_employees: int
    formed_on: date
    filed_on: date
    operating_income_cents_by_year: dict[int, int] = field(default_factory=dict)
    parent_positive_noi: bool = False
    consolidated_group_positive_noi: bool = False
    hq_in_nj: bool = True
    has_protected_ip: bool = True
    is_emerging: bool = True
    certifies_continuing_operation: bool = True


@dataclass(frozen=True)
class EligibilityResult:
    eligible: bool
    reasons: list[str]
    messages: list[str]


def fte_test_date(filed_on: date, ruleset: Ruleset) -> date:
    """The June 30 on which headcounts and age are measured (AMB-37)."""
    if ruleset.tech_fte_test_date == "fiscal_year_end":
        return fiscal_year_end(fiscal_year(filed_on))
    return date(filed_on.year, 6, 30)


def required_nj_ftes(formed_on: date, on: date, ruleset: Ruleset) -> int:
    """The age tier's minimum; at an exact boundary the higher tier applies by default."""
    required = ruleset.tech_nj_fte_tiers[0][1]
    for years, minimum in ruleset.tech_nj_fte_tiers[1:]:
        anniversary = add_years(formed_on, years)
        reached = on >= anniversary if ruleset.tech_nj_fte_boundary == "upper" else on > anniversary
        if reached:
            required = minimum
    return required


def _had_positive_income(facts: TechFacts, ruleset: Ruleset) -> bool:
    # AMB-38: only full years that exist are tested; a seller with none passes.
    first_year = facts.filed_on.year - ruleset.tech_profit_lookback_years
    return any(
        income > 0
        for year, income in facts.operating_income_cents_by_year.items()
        if first_year <= year < facts.filed_on.year
    )


def check_eligibility(
    facts: TechFacts, ruleset: Ruleset, on: date, at_exchange: bool = False
) -> EligibilityResult:
    """At application, ``on`` is ignored in favour of the June 30 test date; at the exchange
    (AMB-50) the headcounts are those of ``on`` and the certification is required."""
    measured_on = on if at_exchange else fte_test_date(facts.filed_on, ruleset)
    need = required_nj_ftes(facts.formed_on, fte_test_date(facts.filed_on, ruleset), ruleset)
    failures: list[str] = []
    if facts.us_employees >= ruleset.tech_us_employee_limit:
        failures.append("too_many_us_employees")
    if facts.nj_full_time_employees < need:
        failures.append("too_few_nj_employees")
    if at_exchange:
        if not facts.certifies_continuing_operation:
            failures.append("no_continuing_operation_certification")
    else:
        checks = (
            (_had_positive_income(facts, ruleset), "positive_operating_income"),
            (facts.parent_positive_noi, "profitable_parent"),
            (facts.consolidated_group_positive_noi, "profitable_consolidated_group"),
            (not facts.hq_in_nj, "no_nj_headquarters"),
            (not facts.has_protected_ip, "no_protected_ip"),
            (not facts.is_emerging, "not_emerging"),
        )
        failures.extend(code for failed, code in checks if failed)
    values = {
        "us": facts.us_employees,
        "limit": ruleset.tech_us_employee_limit,
        "nj": facts.nj_full_time_employees,
        "need": need,
    }
    messages = [
        f"On {measured_on.isoformat()} the seller " + REASON_TEXT[code].format(**values)
        for code in failures
    ]
    return EligibilityResult(eligible=not failures, reasons=failures, messages=messages)


def check_eligible(
    facts: TechFacts, ruleset: Ruleset, on: date, at_exchange: bool = False
) -> EligibilityResult:
    result = check_eligibility(facts, ruleset, on, at_exchange)
    if not result.eligible:
        raise IneligibleSellerError(
            "the seller is not a new or expanding technology or biotechnology business: "
            + "; ".join(result.messages),
            {"reasons": list(result.reasons), "at_exchange": at_exchange},
        )
    return result
