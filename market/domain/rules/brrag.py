"""BRRAG awards, the fiscal-year cap and what issuance must hold (BR-1, BR-2, BR-4, BR-6,
BR-12, AMB-4, AMB-9).

- BR-6: the yearly credit is $1,500 for each retained full-time job; a certificate covers
  one or more years (BR-4), so its face may not exceed $1,500 x jobs x years.
- BR-1: the seller has operated in New Jersey for at least 10 years before it applies.
- BR-2 / AMB-9: the Authority/Director's determination that the credits cannot be used by
  the business before they expire is on record (`cannot_use_before_expiry = true`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from market.domain.errors import DomainError, IneligibleSellerError, InvalidRequestError
from market.domain.rules.caps import check_cap
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents


class AwardExceededError(DomainError):
    code = "award_exceeded"


class DeterminationMissingError(DomainError):
    code = "determination_missing"


@dataclass(frozen=True)
class BrragAward:
    retained_jobs: int
    award_years: int
    nj_operations_since: date
    cannot_use_before_expiry: bool


def yearly_credit_cents(retained_jobs: int, ruleset: Ruleset) -> int:
    if retained_jobs < 0:
        raise InvalidRequestError(
            "retained jobs must not be negative", {"retained_jobs": retained_jobs}
        )
    return retained_jobs * ruleset.brrag_credit_per_job_cents


def award_cents(award: BrragAward, ruleset: Ruleset) -> int:
    if award.award_years < 1:
        raise InvalidRequestError(
            "a BRRAG certificate covers one or more years (BR-4)",
            {"award_years": award.award_years},
        )
    return yearly_credit_cents(award.retained_jobs, ruleset) * award.award_years


def operation_years(since: date, on: date) -> int:
    """Whole years of New Jersey operation from `since` to `on`."""
    years = on.year - since.year
    return years - (1 if (on.month, on.day) < (since.month, since.day) else 0)


def check_award(
    face_cents: int, award: BrragAward, on: date, ruleset: Ruleset
) -> dict[str, object]:
    """Every BR-1/BR-2/BR-6 test issuance must pass on `on`; what the certificate records."""
    supported = award_cents(award, ruleset)
    if face_cents > supported:
        raise AwardExceededError(
            f"{format_cents(face_cents)} exceeds the award: {award.retained_jobs} retained "
            f"full-time jobs x {format_cents(ruleset.brrag_credit_per_job_cents)} x "
            f"{award.award_years} year(s) = {format_cents(supported)} (BR-6).",
            {"face_cents": face_cents, "award_cents": supported},
        )
    years = operation_years(award.nj_operations_since, on)
    if years < ruleset.brrag_min_operation_years:
        raise IneligibleSellerError(
            f"A BRRAG business has operated in New Jersey for at least "
            f"{ruleset.brrag_min_operation_years} years before it applies; this one since "
            f"{award.nj_operations_since.isoformat()} ({years} on {on.isoformat()}; BR-1).",
            {"reasons": ["nj_operation_under_10_years"], "operation_years": years},
        )
    if not award.cannot_use_before_expiry:
        raise DeterminationMissingError(
            "A BRRAG certificate is issued only for credits the Authority and the Director "
            "determined the business cannot use before they expire (BR-2, AMB-9): "
            "cannot_use_before_expiry must be true.",
            {"cannot_use_before_expiry": False},
        )
    return {
        "retained_jobs": award.retained_jobs,
        "award_years": award.award_years,
        "yearly_credit_cents": yearly_credit_cents(award.retained_jobs, ruleset),
        "award_cents": supported,
        "nj_operations_since": award.nj_operations_since.isoformat(),
        "operation_years": years,
        "cannot_use_before_expiry": True,
    }


def check_fy_cap(used_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    check_cap("BRRAG", ruleset.brrag_fy_cap_cents, used_cents, amount_cents)
