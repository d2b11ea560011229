"""A TECH benefit's use on a buyer's returns (market.domain.rules.buyer_value)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from market.domain.programs import TaxType
from market.domain.rules.buyer_value import BuyerYear, liability_from_income, use_by_year
from market.domain.rulesets import A1178


def test_the_statutory_minimum_binds_before_the_liability_for_cbt_only() -> None:
    year = BuyerYear(liability_cents=100_000, statutory_minimum_cents=50_000)
    [cbt] = use_by_year(0, 80_000, TaxType.CBT, year, 2013, 2013, A1178)
    [git] = use_by_year(0, 80_000, TaxType.GIT, year, 2013, 2013, A1178)
    assert (cbt.applied_cents, cbt.limited_by) == (50_000, "statutory_minimum")
    assert (git.applied_cents, git.limited_by) == (80_000, "balance")


def test_liability_is_entire_net_income_times_factor_times_the_top_rate() -> None:
    assert liability_from_income(840_000_000, Fraction(437512, 10**6), A1178) == 33_075_907


@given(
    st.integers(0, 10**9),
    st.integers(0, 10**9),
    st.integers(0, 10**9),
    st.integers(0, 10**8),
    st.integers(0, 10**8),
    st.integers(0, 10),
    st.sampled_from([TaxType.CBT, TaxType.GIT]),
)
def test_no_year_exceeds_its_limits_and_nothing_is_used_twice(
    rnd: int, nol: int, liability: int, other: int, minimum: int, years: int, tax: TaxType
) -> None:
    year = BuyerYear(liability, other, minimum)
    uses = use_by_year(rnd, nol, tax, year, 2013, 2013 + years, A1178)
    room = max(0, liability - other - (minimum if tax is TaxType.CBT else 0))
    ceiling = max(0, liability // 2 - other)
    assert sum(u.rnd_applied_cents for u in uses) <= rnd
    assert sum(u.nol_applied_cents for u in uses) <= nol
    for u in uses:
        assert u.applied_cents <= room and u.rnd_applied_cents <= ceiling
    assert len(uses) <= years + 1


def test_bad_inputs_are_refused() -> None:
    import pytest

    from market.domain.errors import InvalidRequestError

    year = BuyerYear(100)
    with pytest.raises(InvalidRequestError):
        liability_from_income(-1, Fraction(1, 2), A1178)
    with pytest.raises(InvalidRequestError):
        liability_from_income(100, Fraction(3, 2), A1178)
    with pytest.raises(InvalidRequestError):
        use_by_year(-1, 0, TaxType.CBT, year, 2013, 2013, A1178)
    with pytest.raises(InvalidRequestError):
        use_by_year(
            0, 0, TaxType.CBT, BuyerYear(100, statutory_minimum_cents=-1), 2013, 2013, A1178
        )
    with pytest.raises(InvalidRequestError):
        use_by_year(1, 0, TaxType.IPT, year, 2013, 2013, A1178)
    with pytest.raises(InvalidRequestError):
        use_by_year(1, 0, TaxType.CBT, year, 2000, 2100, A1178)
    assert use_by_year(1, 0, TaxType.CBT, year, 2014, 2013, A1178) == []


def test_the_liability_binds_when_nothing_else_does() -> None:
    uses = use_by_year(0, 300, TaxType.GIT, BuyerYear(100), 2013, 2014, A1178)
    assert [(u.applied_cents, u.limited_by) for u in uses] == [
        (100, "liability"),
        (100, "liability"),
    ]
