"""CMN-5 with the worked examples M-1 to M-4 of RULES.md section 5.3."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from market.domain.errors import BelowMinimumConsiderationError, InvalidRequestError
from market.domain.programs import Program
from market.domain.rules.consideration import (
    check_minimum_consideration,
    meets_minimum_consideration,
    minimum_consideration_cents,
)
from market.domain.rulesets import A1178


def test_m1_uth_offer_below_75_percent_is_refused() -> None:
    with pytest.raises(BelowMinimumConsiderationError) as caught:
        check_minimum_consideration(Program.UTH, 179_000_000, 240_000_000, A1178)
    details = caught.value.details
    assert details["pct"] == 75
    assert details["floor_cents"] == 180_000_000
    assert details["ratio"] == str(Fraction(179, 240))
    assert details["ratio_percent"] == "74.5833%"
    assert "74.5833%" in caught.value.message


def test_m1_uth_offer_of_exactly_75_percent_is_accepted() -> None:
    check_minimum_consideration(Program.UTH, 180_000_000, 240_000_000, A1178)
    assert meets_minimum_consideration(Program.UTH, 180_000_000, 240_000_000, A1178)


def test_m2_tech_offer_below_80_percent_is_refused_and_80_percent_accepted() -> None:
    assert not meets_minimum_consideration(Program.TECH, 17_390_000, 21_740_000, A1178)
    assert meets_minimum_consideration(Program.TECH, 17_392_000, 21_740_000, A1178)


def test_m3_an_offer_one_cent_short_is_refused_although_it_rounds_to_80_percent() -> None:
    assert not meets_minimum_consideration(Program.TECH, 8_969_999, 11_212_500, A1178)
    with pytest.raises(BelowMinimumConsiderationError) as caught:
        check_minimum_consideration(Program.TECH, 8_969_999, 11_212_500, A1178)
    assert caught.value.details["floor_cents"] == 8_970_000


def test_m4_a_partial_sale_is_tested_on_the_transferred_portion_only() -> None:
    assert meets_minimum_consideration(Program.DM_CBT, 30_000_000, 40_000_000, A1178)


def test_the_floor_rounds_up_to_the_cent() -> None:
    assert minimum_consideration_cents(Program.UTH, 1, A1178) == 1
    assert minimum_consideration_cents(Program.TECH, 11_212_500, A1178) == 8_970_000


@pytest.mark.parametrize(("consideration", "face"), [(-1, 100), (10, 0), (10, -5)])
def test_negative_or_empty_amounts_are_refused(consideration: int, face: int) -> None:
    with pytest.raises(InvalidRequestError):
        meets_minimum_consideration(Program.UTH, consideration, face, A1178)


@settings(max_examples=200)
@given(
    program=st.sampled_from(list(Program)),
    consideration=st.integers(min_value=0, max_value=10**12),
    face=st.integers(min_value=1, max_value=10**12),
)
def test_the_integer_test_agrees_with_exact_fractions(
    program: Program, consideration: int, face: int
) -> None:
    pct = A1178.min_consideration(program)
    expected = Fraction(consideration, face) >= Fraction(pct, 100)
    assert meets_minimum_consideration(program, consideration, face, A1178) is expected
    floor = minimum_consideration_cents(program, face, A1178)
    assert meets_minimum_consideration(program, floor, face, A1178)
    assert floor == 0 or not meets_minimum_consideration(program, floor - 1, face, A1178)


def test_the_literal_amb5_reading_sets_no_minimum_for_a_retained_brrag_business() -> None:
    from dataclasses import replace

    literal = replace(A1178, brrag_min_consideration_all_sellers=False)
    assert meets_minimum_consideration(Program.BRRAG, 1, 100, literal, relocating=False)
    assert not meets_minimum_consideration(Program.BRRAG, 1, 100, literal, relocating=True)
    assert not meets_minimum_consideration(Program.BRRAG, 1, 100, A1178, relocating=False)
    assert not meets_minimum_consideration(Program.UTH, 1, 100, literal, relocating=False)
