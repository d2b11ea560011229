"""Quartiles, rounding and quarters of the price tape (market.domain.rules.price_tape)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from market.domain.rules.price_tape import (
    Trade,
    bucket_figures,
    is_closed,
    publishable,
    quantile,
    quarter_end,
    quarter_of,
    to_bps,
)


def test_bps_round_half_up_from_the_exact_price() -> None:
    assert to_bps(Fraction(2, 3)) == 6667
    assert to_bps(Fraction(1, 3)) == 3333
    assert to_bps(Fraction(15, 20000)) == 8  # 7.5 bps rounds up


def test_quartiles_interpolate_between_order_statistics() -> None:
    xs = [Fraction(n, 100) for n in (75, 80, 90, 99)]
    assert quantile(xs, Fraction(1, 2)) == Fraction(85, 100)
    assert quantile(xs, Fraction(1, 4)) == Fraction(7875, 10000)
    assert quantile(xs, Fraction(3, 4)) == Fraction(9225, 10000)


def test_quarters_close_after_their_last_day() -> None:
    assert quarter_of(date(2026, 11, 30)) == "2026Q4"
    assert quarter_of(date(1, 1, 1)) == "0001Q1" and quarter_end("0001Q1") == date(1, 3, 31)
    assert quarter_end("2026Q1") == date(2026, 3, 31) and quarter_end("2026Q4") == date(
        2026, 12, 31
    )
    assert not is_closed("2026Q1", date(2026, 3, 31)) and is_closed("2026Q1", date(2026, 4, 1))


def test_three_trades_from_two_sellers_are_the_least_published() -> None:
    def trades(*sellers: str) -> list[Trade]:
        return [Trade(s, 100, 80) for s in sellers]

    assert publishable(trades("a", "a", "b"))
    assert not publishable(trades("a", "b")) and not publishable(trades("a", "a", "a"))


@given(st.lists(st.integers(1, 10**6), min_size=3, max_size=30))
def test_quartiles_are_ordered_and_within_the_prices(considerations: list[int]) -> None:
    trades = [Trade(str(i % 2), 10**6, c) for i, c in enumerate(considerations)]
    f = bucket_figures(trades)
    lo, hi = (
        to_bps(Fraction(min(considerations), 10**6)),
        to_bps(Fraction(max(considerations), 10**6)),
    )
    assert lo <= f["p25_bps"] <= f["median_bps"] <= f["p75_bps"] <= hi
    assert f["count"] == len(considerations)


def test_the_top_quantile_of_one_value_is_that_value() -> None:
    assert quantile([Fraction(3, 4)], Fraction(1, 2)) == Fraction(3, 4)
    assert quantile([Fraction(1, 2), Fraction(3, 4)], Fraction(1)) == Fraction(3, 4)
