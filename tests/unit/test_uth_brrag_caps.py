"""UTH-7 to UTH-13, BR-6, BR-12 and the shared cap check."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from market.domain.errors import CapExceededError, InvalidRequestError
from market.domain.rules import brrag, uth
from market.domain.rules.caps import check_cap, remaining_cents
from market.domain.rulesets import A1178


def test_a_uth_credit_is_taken_one_tenth_per_period_with_the_odd_cents_spread() -> None:
    """UTH-7 / CMN-2: the leftover cents go one each to the earliest installments."""
    plan = uth.installments(100_000_007, 2013, A1178)
    assert plan[:7] == [(2013 + i, 10_000_001) for i in range(7)]
    assert plan[7:] == [(2020, 10_000_000), (2021, 10_000_000), (2022, 10_000_000)]
    assert len(plan) == 10 and sum(c for _, c in plan) == 100_000_007


@given(st.integers(0, 10**15))
def test_no_installment_is_more_than_a_cent_above_another(total: int) -> None:
    cents = [c for _, c in uth.installments(total, 2013, A1178)]
    assert sum(cents) == total and max(cents) - min(cents) <= 1
    assert cents == sorted(cents, reverse=True)


def test_an_award_just_under_the_cumulative_cap_fits_every_fiscal_year_cap() -> None:
    """$1,499,999,999.99: nine installments of exactly $150,000,000.00 and one a cent less;
    with every leftover cent on the last one it would be $150,000,000.08, over the FY cap."""
    total = A1178.uth_cumulative_cap_cents - 1
    plan = uth.installments(total, 2013, A1178)
    assert [c for _, c in plan] == [A1178.uth_fy_cap_cents] * 9 + [A1178.uth_fy_cap_cents - 1]
    for _, cents in plan:
        uth.check_fy_cap(0, cents, A1178)
    uth.check_cumulative_cap(0, total, A1178)


def test_a_negative_uth_credit_is_refused() -> None:
    with pytest.raises(InvalidRequestError):
        uth.installments(-1, 2013, A1178)


def test_too_few_new_positions_cut_the_installment_by_20_percent_rounding_down() -> None:
    assert uth.reduced_installment(1_000_001, "new_positions_below_200") == 800_000
    assert uth.reduced_installment(1_000_000, "new_positions_below_200", A1178) == 800_000
    assert uth.reduced_installment(1_000_000, "none") == 1_000_000


@pytest.mark.parametrize("reason", sorted(uth.FORFEITURES))
def test_a_forfeiture_leaves_nothing_for_the_period(reason: str) -> None:
    assert uth.reduced_installment(1_000_000, reason) == 0


def test_an_unknown_reduction_is_refused() -> None:
    with pytest.raises(InvalidRequestError, match="unknown UTH reduction"):
        uth.reduced_installment(1, "bad_weather")


def test_a_tenant_installment_never_exceeds_its_lease_payments() -> None:
    assert uth.tenant_installment(1_000, 600) == 600
    assert uth.tenant_installment(1_000, 5_000) == 1_000
    assert uth.tenant_installment(1_000, -5) == 0


def test_uth_caps_refuse_an_approval_over_150_million_a_year_or_1_5_billion_in_all() -> None:
    uth.check_fy_cap(14_000_000_000, 1_000_000_000, A1178)
    with pytest.raises(CapExceededError) as caught:
        uth.check_fy_cap(14_000_000_000, 1_000_000_001, A1178)
    assert caught.value.details["remaining_cents"] == 1_000_000_000
    uth.check_cumulative_cap(149_000_000_000, 1_000_000_000, A1178)
    with pytest.raises(CapExceededError, match="UTH_CUMULATIVE"):
        uth.check_cumulative_cap(149_000_000_000, 1_000_000_001, A1178)


def test_a_uth_tranche_carries_forward_twenty_periods() -> None:
    assert uth.carryforward_last_period(5, A1178) == 25


def test_brrag_credit_is_1500_dollars_per_retained_job() -> None:
    assert brrag.yearly_credit_cents(100, A1178) == 15_000_000
    with pytest.raises(InvalidRequestError):
        brrag.yearly_credit_cents(-1, A1178)


def test_brrag_approvals_over_20_million_a_year_are_refused() -> None:
    brrag.check_fy_cap(0, 2_000_000_000, A1178)
    with pytest.raises(CapExceededError, match="BRRAG"):
        brrag.check_fy_cap(1, 2_000_000_000, A1178)


def test_the_cap_check_refuses_negative_amounts_and_reports_what_remains() -> None:
    with pytest.raises(InvalidRequestError):
        check_cap("X", 10, 0, -1)
    with pytest.raises(InvalidRequestError):
        check_cap("X", 10, -1, 1)
    assert remaining_cents(10, 12) == 0


def test_more_than_the_balance_cannot_be_sold_or_applied() -> None:
    from market.domain.errors import InsufficientBalanceError
    from market.domain.rules.balance import check_available

    check_available(100, 100)
    with pytest.raises(InsufficientBalanceError) as caught:
        check_available(100, 101, "listing")
    assert caught.value.details == {"balance_cents": 100, "amount_cents": 101, "what": "listing"}
    with pytest.raises(InvalidRequestError):
        check_available(100, 0)


def test_a_calendar_year_period_commences_in_its_own_fiscal_year() -> None:
    """UTH-13 / AMB-13: period 2013 of a calendar-year filer begins January 1, 2013 (FY
    2013); a filer whose year begins July 1 starts period 2013 in FY 2014."""
    from datetime import date

    assert uth.period_commences_on(2013, A1178) == date(2013, 1, 1)
    assert (
        uth.bucket_fiscal_year(uth.period_commences_on(2013, A1178), date(2020, 1, 1), A1178)
        == 2013
    )
    july = uth.period_commences_on(2013, A1178, start_month=7)
    assert uth.bucket_fiscal_year(july, date(2020, 1, 1), A1178) == 2014
    with pytest.raises(InvalidRequestError):
        uth.period_commences_on(2013, A1178, start_month=13)
