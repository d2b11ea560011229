"""Value of a surrendered technology/biotechnology benefit (TB-10, AMB-41, AMB-43).

The allocation factor is kept exact and only the final product is rounded, half-up, to
the cent; the seller's tax regime picks the top rate.
"""

from __future__ import annotations

from fractions import Fraction

from market.domain.errors import InvalidRequestError
from market.domain.programs import TaxType
from market.domain.rulesets import Ruleset
from market.domain.values import round_half_up


def rate_regime(
    seller_tax_regime: TaxType, buyer_tax_regime: TaxType | None, ruleset: Ruleset
) -> TaxType:
    """AMB-41: whose regime picks the factor and top rate; the seller's by default."""
    if ruleset.tech_nol_rate_regime == "buyer" and buyer_tax_regime is not None:
        return buyer_tax_regime
    return seller_tax_regime


def max_rate(seller_tax_regime: TaxType, tax_year: int, ruleset: Ruleset) -> Fraction:
    if seller_tax_regime is TaxType.CBT:
        return ruleset.max_rate_cbt
    if seller_tax_regime is TaxType.GIT:
        return ruleset.max_rate_git(tax_year)
    raise InvalidRequestError(
        f"a {seller_tax_regime} taxpayer has no NOL benefit to surrender",
        {"seller_tax_regime": str(seller_tax_regime)},
    )


def nol_benefit_cents(
    nol_cents: int,
    allocation_factor: Fraction,
    seller_tax_regime: TaxType,
    tax_year: int,
    ruleset: Ruleset,
) -> int:
    if nol_cents < 0 or allocation_factor < 0 or allocation_factor > 1:
        raise InvalidRequestError(
            "the NOL must not be negative and the allocation factor must lie in [0, 1]",
            {"nol_cents": nol_cents, "allocation_factor": str(allocation_factor)},
        )
    rate = max_rate(seller_tax_regime, tax_year, ruleset)
    return round_half_up(nol_cents * Fraction(allocation_factor) * rate)


def benefit_cents(
    nol_cents: int,
    allocation_factor: Fraction,
    seller_tax_regime: TaxType,
    rnd_credit_cents: int,
    tax_year: int,
    ruleset: Ruleset,
) -> int:
    if rnd_credit_cents < 0:
        raise InvalidRequestError(
            "the R&D credit must not be negative", {"rnd_credit_cents": rnd_credit_cents}
        )
    if nol_cents == 0:
        return rnd_credit_cents
    nol_part = nol_benefit_cents(nol_cents, allocation_factor, seller_tax_regime, tax_year, ruleset)
    return nol_part + rnd_credit_cents
