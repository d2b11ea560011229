"""BRRAG yearly credit and fiscal-year cap (BR-6, BR-12, AMB-4)."""

from __future__ import annotations

from market.domain.errors import InvalidRequestError
from market.domain.rules.caps import check_cap
from market.domain.rulesets import Ruleset


def yearly_credit_cents(retained_jobs: int, ruleset: Ruleset) -> int:
    if retained_jobs < 0:
        raise InvalidRequestError(
            "retained jobs must not be negative", {"retained_jobs": retained_jobs}
        )
    return retained_jobs * ruleset.brrag_credit_per_job_cents


def check_fy_cap(used_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    check_cap("BRRAG", ruleset.brrag_fy_cap_cents, used_cents, amount_cents)
