"""PT-2 to PT-6, DMG-5/6, DMC-6 and AMB-52 with the table of RULES.md section 5.4."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from market.domain.errors import InvalidRequestError, TaxTypeNotAllowedError
from market.domain.programs import Program, TaxType
from market.domain.rules.credit_use import CreditLimitInput, apply_credit, carryover_last_year
from market.domain.rules.pass_through import (
    allocate_by_income_share,
    cap40_cents,
    liability_share_ratio,
)
from market.domain.rulesets import A1178

D = 100  # cents per dollar

PARTNERS = {
    # partner: (entity income, category sources, other categories, liability L)
    "A": (500_000, [500_000, -100_000], [100_000, 10_000], 40_000),
    "B": (300_000, [300_000], [], 21_000),
    "C": (200_000, [200_000], [900_000], 85_000),
}


def cents(values: list[int]) -> list[int]:
    return [v * D for v in values]


def test_the_partnership_credit_is_split_by_distributive_income() -> None:
    shares = {"A": 500_000 * D, "B": 300_000 * D, "C": 200_000 * D}
    assert allocate_by_income_share(200_000 * D, shares) == {
        "A": 100_000 * D,
        "B": 60_000 * D,
        "C": 40_000 * D,
    }


def test_the_s_corporation_credit_is_split_by_pro_rata_income() -> None:
    assert allocate_by_income_share(50_000 * D, {"S1": 70, "S2": 30}) == {
        "S1": 35_000 * D,
        "S2": 15_000 * D,
    }


def test_the_liability_share_ratios_of_the_worked_example() -> None:
    ratios = {
        p: liability_share_ratio(i * D, cents(cat), cents(other))
        for p, (i, cat, other, _) in PARTNERS.items()
    }
    assert ratios == {"A": Fraction(40, 51), "B": Fraction(1), "C": Fraction(2, 11)}
    caps = {p: cap40_cents(ratios[p], PARTNERS[p][3] * D) for p in PARTNERS}
    assert caps == {"A": 3_137_254, "B": 2_100_000, "C": 1_545_454}


@pytest.mark.parametrize(
    ("partner", "share", "applied", "carried", "limited_by"),
    [
        ("A", 100_000, 2_000_000, 8_000_000, "fifty_percent_ceiling"),
        ("B", 60_000, 1_050_000, 4_950_000, "fifty_percent_ceiling"),
        ("C", 40_000, 1_545_454, 2_454_546, "section_40_ratio"),
    ],
)
def test_the_amount_applied_in_2013_is_the_least_of_credit_cap40_and_half_the_liability(
    partner: str, share: int, applied: int, carried: int, limited_by: str
) -> None:
    income, category, other, liability = PARTNERS[partner]
    ratio = liability_share_ratio(income * D, cents(category), cents(other))
    inp = CreditLimitInput(
        Program.DM_GIT,
        TaxType.GIT,
        share * D,
        liability * D,
        cap40_cents=cap40_cents(ratio, liability * D),
    )
    use = apply_credit(inp, share * D, A1178)
    assert (use.applied_cents, use.carried_forward_cents, use.limited_by) == (
        applied,
        carried,
        limited_by,
    )


@pytest.mark.parametrize(
    ("partner", "share", "applied"),
    [("A", 100_000, 1_568_627), ("B", 60_000, 1_050_000), ("C", 40_000, 772_727)],
)
def test_the_amb52_alternative_caps_at_half_of_cap40(
    partner: str, share: int, applied: int
) -> None:
    income, category, other, liability = PARTNERS[partner]
    ratio = liability_share_ratio(income * D, cents(category), cents(other))
    inp = CreditLimitInput(
        Program.DM_GIT,
        TaxType.GIT,
        share * D,
        liability * D,
        cap40_cents=cap40_cents(ratio, liability * D),
    )
    alt = replace(A1178, pt_ceiling_mode="fifty_percent_of_cap40")
    assert apply_credit(inp, share * D, alt).applied_cents == applied


def test_the_algebraic_reading_of_the_numerator_uses_the_entity_income_itself() -> None:
    alt = replace(A1178, pt_numerator_mode="algebraic")
    ratio = liability_share_ratio(50_000_000, [50_000_000, -10_000_000], [11_000_000], alt)
    assert ratio == Fraction(50, 51)


def test_no_positive_entity_income_or_gross_income_gives_a_zero_ratio() -> None:
    assert liability_share_ratio(-5, [-5], [100]) == 0
    assert liability_share_ratio(5, [5, -10], []) == 0


def test_the_ratio_never_exceeds_one() -> None:
    assert liability_share_ratio(100, [100], [-50]) == 1


def test_a_loss_year_falls_back_to_profit_sharing_percentages() -> None:
    assert allocate_by_income_share(100, {"A": 0, "B": 0}, {"A": 6_000, "B": 4_000}) == {
        "A": 60,
        "B": 40,
    }
    with pytest.raises(InvalidRequestError, match="AMB-54"):
        allocate_by_income_share(100, {"A": 0})
    with pytest.raises(InvalidRequestError, match="AMB-54"):
        allocate_by_income_share(100, {"A": 0}, {"A": 0})
    with pytest.raises(InvalidRequestError):
        allocate_by_income_share(100, {"A": 0}, {"A": 20_000, "B": -10_000})
    with pytest.raises(InvalidRequestError):
        allocate_by_income_share(100, {"A": -1, "B": 5})


@settings(max_examples=150)
@given(
    st.integers(min_value=0, max_value=10**10),
    st.dictionaries(
        st.text(min_size=1, max_size=3), st.integers(0, 10**9), min_size=1, max_size=8
    ).filter(lambda d: sum(d.values()) > 0),
)
def test_a_split_sums_exactly_and_each_owner_is_within_a_cent_of_its_share(
    amount: int, shares: dict[str, int]
) -> None:
    result = allocate_by_income_share(amount, shares)
    assert sum(result.values()) == amount
    total = sum(shares.values())
    assert all(abs(result[o] - Fraction(amount * s, total)) < 1 for o, s in shares.items())


def test_a_cbt_credit_cannot_reduce_the_tax_below_the_statutory_minimum() -> None:
    inp = CreditLimitInput(
        Program.DM_CBT, TaxType.CBT, 100_000, 100_000, statutory_minimum_cents=80_000
    )
    assert apply_credit(inp, 100_000, A1178) == apply_credit(inp, 100_000, A1178)
    use = apply_credit(inp, 100_000, A1178)
    assert (use.applied_cents, use.limited_by) == (20_000, "statutory_minimum")


def test_other_credits_count_against_the_50_percent_ceiling() -> None:
    inp = CreditLimitInput(
        Program.DM_GIT, TaxType.GIT, 100_000, 100_001, other_credits_cents=30_000
    )
    use = apply_credit(inp, 100_000, A1178)
    assert (use.applied_cents, use.limited_by) == (20_000, "fifty_percent_ceiling")


def test_a_request_below_every_limit_is_applied_in_full() -> None:
    inp = CreditLimitInput(Program.UTH, TaxType.IPT, 10_000, 1_000_000)
    assert apply_credit(inp, 4_000, A1178).limited_by == "requested"
    assert apply_credit(inp, 40_000, A1178).limited_by == "balance"
    small = CreditLimitInput(Program.UTH, TaxType.IPT, 10_000, 3_000, other_credits_cents=4_000)
    use = apply_credit(small, 10_000, A1178)
    assert (use.applied_cents, use.carried_forward_cents, use.limited_by) == (
        0,
        10_000,
        "liability",
    )


def test_negative_amounts_and_disallowed_tax_types_are_refused() -> None:
    with pytest.raises(InvalidRequestError):
        apply_credit(CreditLimitInput(Program.UTH, TaxType.CBT, -1, 0), 0, A1178)
    with pytest.raises(InvalidRequestError):
        apply_credit(CreditLimitInput(Program.UTH, TaxType.GIT, 1, 1, cap40_cents=-1), 0, A1178)
    with pytest.raises(TaxTypeNotAllowedError):
        apply_credit(CreditLimitInput(Program.TECH, TaxType.IPT, 1, 1), 1, A1178)


def test_a_ruleset_can_block_gross_income_tax_use_of_a_dm_cbt_certificate() -> None:
    inp = CreditLimitInput(Program.DM_CBT, TaxType.GIT, 100, 1_000)
    assert apply_credit(inp, 100, A1178).applied_cents == 100
    with pytest.raises(InvalidRequestError, match="AMB-21"):
        apply_credit(inp, 100, replace(A1178, dm_git_use_of_cbt_certificate=False))


def test_carryover_windows_per_program() -> None:
    assert carryover_last_year(Program.DM_GIT, TaxType.GIT, 2013, A1178) == 2020
    assert carryover_last_year(Program.DM_CBT, TaxType.CBT, 2013, A1178) == 2020
    assert carryover_last_year(Program.UTH, TaxType.IPT, 3, A1178) == 23
    assert carryover_last_year(Program.TECH, TaxType.GIT, 2010, A1178) == 2017
    assert carryover_last_year(Program.TECH, TaxType.GIT, 2010, A1178, field_15_year=True) == 2025
    # BR-11: N.J.A.C. 19:31N-1.1(b), the tax period of issue and the next.
    assert carryover_last_year(Program.BRRAG, TaxType.CBT, 2013, A1178) == 2014


def test_with_no_cbt_minimum_the_liability_is_named_as_the_binding_limit() -> None:
    from market.domain.programs import Program, TaxType
    from market.domain.rules.credit_use import CreditLimitInput, apply_credit
    from market.domain.rulesets import get_ruleset

    use = apply_credit(
        CreditLimitInput(
            Program.BRRAG, TaxType.CBT, available_cents=100_000_000, liability_cents=40_000_000
        ),
        100_000_000,
        get_ruleset(),
    )
    assert (use.applied_cents, use.carried_forward_cents, use.limited_by) == (
        40_000_000,
        60_000_000,
        "liability",
    )


@pytest.mark.parametrize("entity_type", ["partnership", "llc", "s_corporation"])
def test_pass_through_entities_are_not_allowed_a_git_credit_directly(entity_type: str) -> None:
    """PT-5 / PT-6: they pass it through; a CBT use, or a corporation, is not barred."""
    from market.domain.rules.pass_through import PassThroughRequiredError, check_direct_git_use

    with pytest.raises(PassThroughRequiredError) as refused:
        check_direct_git_use(entity_type, "GIT")
    assert refused.value.code == "pass_through_required"
    assert refused.value.details == {"entity_type": entity_type, "tax_type": "GIT"}
    check_direct_git_use(entity_type, "CBT")
    check_direct_git_use("c_corporation", "GIT")
