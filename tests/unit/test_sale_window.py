"""PRODUCT.md 8.4 / BR-11: a credit nobody can use any more is not sold; the BRRAG term
is the tax period of issue and the next (N.J.A.C. 19:31N-1.1(b))."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from market.domain.programs import Program, TaxType
from market.domain.rules import sale_window
from market.domain.rules.credit_use import carryover_last_year
from market.domain.rulesets import A1178

CALENDAR = replace(A1178, name="A1178-calendar", sale_window_reading="calendar_year")


def test_brrag_credit_of_2013_is_usable_in_2013_and_2014_only() -> None:
    assert A1178.brrag_use_periods == 2
    assert carryover_last_year(Program.BRRAG, TaxType.GIT, 2013, A1178) == 2014
    three = replace(A1178, name="A1178-three", brrag_use_periods=3)
    assert carryover_last_year(Program.BRRAG, TaxType.IPT, 2013, three) == 2015


def test_a_period_labelled_l_may_run_to_the_end_of_the_next_year_by_default() -> None:
    assert sale_window.usable_until(2014, A1178) == date(2015, 12, 31)
    assert sale_window.usable_until(2014, CALENDAR) == date(2014, 12, 31)
    assert sale_window.usable_until(None, A1178) is None


def test_sale_is_refused_the_day_after_the_window_closes() -> None:
    said = sale_window.check_sellable(2014, date(2015, 12, 31), A1178)
    assert said.startswith("The credit is usable through tax year 2014")
    with pytest.raises(sale_window.CarryforwardExpiredError) as refused:
        sale_window.check_sellable(2014, date(2016, 1, 1), A1178)
    assert refused.value.code == "carryforward_expired"
    assert refused.value.details == {
        "usable_through": 2014,
        "usable_until": "2015-12-31",
        "on": "2016-01-01",
    }
    assert "BR-11" in refused.value.message
    with pytest.raises(sale_window.CarryforwardExpiredError):
        sale_window.check_sellable(2014, date(2015, 1, 1), CALENDAR)


def test_no_window_on_record_never_closes() -> None:
    said = sale_window.check_sellable(None, date(2099, 1, 1), A1178)
    assert "No carryforward window" in said


def test_uth_is_usable_through_the_latest_unsold_installment() -> None:
    tranches = [
        {"period": 2013, "cents": 10, "unsold_cents": 0, "carryforward_last_period": 2033},
        {"period": 2014, "cents": 10, "unsold_cents": 4, "carryforward_last_period": 2034},
        {"period": 2015, "cents": 10, "unsold_cents": 0, "carryforward_last_period": 2035},
    ]
    assert sale_window.usable_through(None, tranches) == 2034
    # A buyer's tranche has no unsold_cents: what it holds counts.
    held = [{"period": 2016, "cents": 7, "carryforward_last_period": 2036}]
    assert sale_window.usable_through(None, held) == 2036
    assert sale_window.usable_through(None, [tranches[0]]) is None
    assert sale_window.usable_through(2020, None) == 2020


def test_an_unknown_reading_is_refused() -> None:
    odd = replace(A1178, name="A1178-odd", sale_window_reading="fiscal_year")
    with pytest.raises(Exception, match="unknown sale_window_reading"):
        sale_window.usable_until(2014, odd)
