from datetime import date
from fractions import Fraction

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.values import (
    add_years,
    ceil_int,
    fiscal_year,
    fiscal_year_end,
    fiscal_year_start,
    floor_int,
    format_cents,
    parse_ratio,
    percent_text,
    ratio_bps,
    round_half_up,
)


def test_fiscal_year_n_ends_on_june_30_of_n() -> None:
    assert fiscal_year(date(2013, 6, 30)) == 2013
    assert fiscal_year(date(2012, 7, 1)) == 2013
    assert fiscal_year_start(2013) == date(2012, 7, 1)
    assert fiscal_year_end(2013) == date(2013, 6, 30)


def test_a_decimal_ratio_stays_exact() -> None:
    assert parse_ratio("0.437512") == Fraction(437_512, 1_000_000)
    assert parse_ratio(" 3/4 ") == Fraction(3, 4)
    assert parse_ratio("1") == 1
    assert parse_ratio(".5") == Fraction(1, 2)


@pytest.mark.parametrize("text", ["-0.5", "abc", "", "1e3", "nan", "0.5/3", "inf"])
def test_negative_or_garbage_ratios_are_refused(text: str) -> None:
    with pytest.raises(InvalidRequestError):
        parse_ratio(text)


def test_a_ratio_over_zero_is_refused() -> None:
    with pytest.raises(InvalidRequestError, match="divides by zero"):
        parse_ratio("1/0")


def test_a_non_string_ratio_is_refused() -> None:
    with pytest.raises(InvalidRequestError):
        parse_ratio(0.5)  # type: ignore[arg-type]


def test_rounding_half_up_goes_away_from_zero_at_the_half() -> None:
    assert round_half_up(Fraction(5, 2)) == 3
    assert round_half_up(Fraction(-5, 2)) == -3
    assert round_half_up(Fraction(24, 10)) == 2
    assert floor_int(Fraction(-1, 2)) == -1
    assert ceil_int(Fraction(1, 3)) == 1


def test_cents_are_formatted_as_dollars() -> None:
    assert format_cents(123_456) == "$1,234.56"
    assert format_cents(-5) == "-$0.05"


def test_ratio_in_basis_points_is_exact() -> None:
    assert ratio_bps(75, 100) == 7_500
    assert percent_text(Fraction(1_790_000, 2_400_000)) == "74.5833%"
    with pytest.raises(InvalidRequestError):
        ratio_bps(1, 0)


def test_a_leap_day_anniversary_falls_on_march_first() -> None:
    assert add_years(date(2012, 2, 29), 5) == date(2017, 3, 1)
    assert add_years(date(2012, 2, 28), 5) == date(2017, 2, 28)
