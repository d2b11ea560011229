"""TB-10 with the worked examples N-1 and N-2 of RULES.md section 5.2."""

from fractions import Fraction

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.programs import Program, TaxType
from market.domain.rules.consideration import minimum_consideration_cents
from market.domain.rules.tech_benefit import benefit_cents, nol_benefit_cents
from market.domain.rulesets import A1178
from market.domain.values import parse_ratio


def test_n1_cbt_seller_benefit_is_nol_times_factor_times_nine_percent_plus_rnd() -> None:
    nol = nol_benefit_cents(300_000_000, parse_ratio("0.62"), TaxType.CBT, 2013, A1178)
    assert nol == 16_740_000
    total = benefit_cents(300_000_000, parse_ratio("0.62"), TaxType.CBT, 5_000_000, 2013, A1178)
    assert total == 21_740_000
    assert minimum_consideration_cents(Program.TECH, total, A1178) == 17_392_000


def test_n2_git_seller_uses_the_top_gross_income_tax_rate() -> None:
    total = benefit_cents(125_000_000, parse_ratio("1.000000"), TaxType.GIT, 0, 2012, A1178)
    assert total == 11_212_500
    assert minimum_consideration_cents(Program.TECH, total, A1178) == 8_970_000


def test_n2_precision_the_factor_stays_exact_and_only_the_product_is_rounded() -> None:
    total = benefit_cents(840_000_000, parse_ratio("0.437512"), TaxType.CBT, 0, 2013, A1178)
    assert total == 33_075_907


def test_the_product_rounds_half_up_to_the_cent() -> None:
    assert nol_benefit_cents(50, Fraction(1, 9), TaxType.CBT, 2013, A1178) == 1  # 0.5 cent


def test_an_rnd_only_surrender_needs_no_rate() -> None:
    assert benefit_cents(0, Fraction(0), TaxType.IPT, 12_345, 2013, A1178) == 12_345


def test_an_insurance_premiums_taxpayer_has_no_nol_to_value() -> None:
    with pytest.raises(InvalidRequestError, match="no NOL benefit"):
        benefit_cents(100, Fraction(1), TaxType.IPT, 0, 2013, A1178)


@pytest.mark.parametrize(
    ("nol", "factor", "rnd"),
    [(-1, Fraction(1), 0), (1, Fraction(-1), 0), (1, Fraction(2), 0), (1, Fraction(1), -1)],
)
def test_negative_inputs_and_factors_above_one_are_refused(
    nol: int, factor: Fraction, rnd: int
) -> None:
    with pytest.raises(InvalidRequestError):
        benefit_cents(nol, factor, TaxType.CBT, rnd, 2013, A1178)


def test_the_seller_regime_picks_the_rate_unless_the_ruleset_reads_it_as_the_buyer() -> None:
    from dataclasses import replace

    from market.domain.rules.tech_benefit import rate_regime

    assert rate_regime(TaxType.CBT, TaxType.GIT, A1178) is TaxType.CBT
    buyer = replace(A1178, tech_nol_rate_regime="buyer")
    assert rate_regime(TaxType.CBT, TaxType.GIT, buyer) is TaxType.GIT
    assert rate_regime(TaxType.CBT, None, buyer) is TaxType.CBT
