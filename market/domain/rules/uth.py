"""Urban Transit Hub installments, reductions, caps and carryforward
(UTH-7, UTH-8, UTH-9, UTH-10, UTH-11, UTH-12, UTH-13, AMB-13).
"""

from __future__ import annotations

from datetime import date

from market.domain.errors import InvalidRequestError
from market.domain.rules.caps import check_cap
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year

# UTH-11: a shortfall of new positions cuts the installment; the other findings forfeit it.
REDUCTIONS: frozenset[str] = frozenset({"none", "new_positions_below_200"})


FORFEITURES: frozenset[str] = frozenset(
    {
        "late_documentation",
        "statewide_workforce_drop",
        "facility_fte_below_250",
        "other_facility_drop",
        "facility_sold",
    }
)


def installments(total_cents: int, first_period: int, ruleset: Ruleset) -> list[tuple[int, int]]:
    """One tenth per tax period (UTH-7), exact to the cent (CMN-2): each installment is the
    share rounded down, and the leftover cents go one each to the earliest installments
    (every remainder is equal, so the tie goes to the earlier period), so no installment is
    more than a cent above another and none exceeds the FY cap that the total fits ten times."""
    if total_cents < 0:
        raise InvalidRequestError("a credit must not be negative", {"total_cents": total_cents})
    fraction = ruleset.uth_installment_fraction
    count = fraction.denominator // fraction.numerator
    share, leftover = divmod(total_cents, count)
    amounts = [share + (1 if i < leftover else 0) for i in range(count)]
    return [(first_period + i, cents) for i, cents in enumerate(amounts)]


def reduced_installment(cents: int, reduction: str, ruleset: Ruleset | None = None) -> int:
    """The usable installment after the annual review; usable amounts round down."""
    if reduction == "none":
        return cents
    if reduction == "new_positions_below_200":
        pct = ruleset.uth_reduction_pct if ruleset is not None else 20
        return cents * (100 - pct) // 100
    if reduction in FORFEITURES:
        return 0
    raise InvalidRequestError(
        f"unknown UTH reduction {reduction!r}",
        {"reduction": reduction, "known": sorted(REDUCTIONS | FORFEITURES)},
    )


def tenant_installment(cents: int, lease_payments_cents: int) -> int:
    """UTH-9: a tenant's installment never exceeds its lease payments for the period."""
    return min(cents, max(0, lease_payments_cents))


def period_commences_on(period: int, ruleset: Ruleset, start_month: int | None = None) -> date:
    """UTH-13: the first day of tax period `period`, a year beginning in `start_month` (the
    holder's) or the ruleset's `uth_period_start_month` (calendar-year filers)."""
    month = start_month if start_month is not None else ruleset.uth_period_start_month
    if not 1 <= month <= 12:
        raise InvalidRequestError(
            "a tax year begins in a month from 1 to 12", {"tax_period_start_month": month}
        )
    return date(period, month, 1)


def bucket_fiscal_year(period_commences_on: date, approved_on: date, ruleset: Ruleset) -> int:
    """UTH-13 / AMB-13: an installment counts in the FY its credited period commences."""
    if ruleset.uth_fy_bucket == "approval":
        return fiscal_year(approved_on)
    return fiscal_year(period_commences_on)


def check_fy_cap(used_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    check_cap("UTH", ruleset.uth_fy_cap_cents, used_cents, amount_cents)


def check_cumulative_cap(used_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    check_cap("UTH_CUMULATIVE", ruleset.uth_cumulative_cap_cents, used_cents, amount_cents)


def carryforward_last_period(first_usable_period: int, ruleset: Ruleset) -> int:
    """The 20 successive periods after the first usable one (AMB-15), as a period index."""
    return first_usable_period + ruleset.uth_carryforward_periods
