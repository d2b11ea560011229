"""What a TECH benefit is worth to a buyer, year by year (TB-10, TB-26, TB-27, AMB-41,
AMB-45; PRODUCT.md 8.3 buyer calculator).

The buyer's liability is either given or derived from its entire net income and NJ
allocation factor at the top CBT rate (the factor and rate TB-10 uses, exact; the
product rounded half up to the cent). Each tax year from the first through the last the
credit may be used in:
- the R&D carryover part is limited to the ruleset's ceiling (50%) of the liability less
  other credits, and for CBT to the liability less other credits and the statutory
  minimum tax (C.54:10A-5.24(b); section 21(b) for GIT);
- the NOL-derived part is applied like a credit limited by the liability, other credits
  and the CBT statutory minimum (AMB-45), after the R&D part of the same year.
What is not used by the last year expires: it is worth nothing to this buyer.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from market.domain.errors import InvalidRequestError
from market.domain.programs import TaxType
from market.domain.rulesets import Ruleset
from market.domain.values import floor_int, round_half_up

MAX_YEARS = 40


@dataclass(frozen=True)
class BuyerYear:
    liability_cents: int
    other_credits_cents: int = 0
    statutory_minimum_cents: int = 0


@dataclass(frozen=True)
class YearUse:
    tax_year: int
    rnd_applied_cents: int
    nol_applied_cents: int
    limited_by: str

    @property
    def applied_cents(self) -> int:
        return self.rnd_applied_cents + self.nol_applied_cents


def liability_from_income(
    entire_net_income_cents: int, allocation_factor: Fraction, ruleset: Ruleset
) -> int:
    """CBT on the NJ-allocated share of entire net income at the top rate."""
    if entire_net_income_cents < 0 or not 0 <= allocation_factor <= 1:
        raise InvalidRequestError(
            "Entire net income must not be negative and the allocation factor must lie in [0, 1].",
            {"allocation_factor": str(allocation_factor)},
        )
    return round_half_up(entire_net_income_cents * allocation_factor * ruleset.max_rate_cbt)


def use_by_year(
    rnd_cents: int,
    nol_cents: int,
    tax_type: TaxType,
    year: BuyerYear,
    first_year: int,
    last_year: int,
    ruleset: Ruleset,
) -> list[YearUse]:
    if min(rnd_cents, nol_cents, year.liability_cents, year.other_credits_cents) < 0 or (
        year.statutory_minimum_cents < 0
    ):
        raise InvalidRequestError("Amounts must not be negative.", {})
    if tax_type not in (TaxType.CBT, TaxType.GIT):
        raise InvalidRequestError("A TECH benefit is used against CBT or GIT only (TB-26).", {})
    if last_year < first_year:
        return []  # the carryover ended before the first year of use: worth nothing
    if last_year - first_year >= MAX_YEARS:
        raise InvalidRequestError(
            f"At most {MAX_YEARS} years of use are computed.",
            {"first_tax_year": first_year, "usable_through": last_year},
        )
    minimum = year.statutory_minimum_cents if tax_type is TaxType.CBT else 0
    room = max(0, year.liability_cents - year.other_credits_cents - minimum)
    ceiling = max(
        0,
        floor_int(ruleset.tech_rnd_liability_ceiling * year.liability_cents)
        - year.other_credits_cents,
    )
    uses = []
    rnd_left, nol_left = rnd_cents, nol_cents
    for tax_year in range(first_year, last_year + 1):
        rnd = min(rnd_left, ceiling, room)
        nol = min(nol_left, room - rnd)
        rnd_left, nol_left = rnd_left - rnd, nol_left - nol
        if rnd_left == 0 and nol_left == 0:
            limited = "balance"
        elif rnd_left and rnd == ceiling and ceiling < room:
            limited = "rnd_liability_ceiling"
        elif minimum and room - rnd - nol == 0:
            limited = "statutory_minimum"
        else:
            limited = "liability"
        uses.append(YearUse(tax_year, rnd, nol, limited))
        if limited == "balance":
            break
    return uses
