"""Headquarters windows and certifications (market.domain.rules.covenants)."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from market.domain.rules.covenants import Window, certification_dates, exposure_cents, reminders

W = Window(date(2016, 2, 29), date(2021, 3, 1))


def test_a_leap_day_start_has_its_anniversaries_on_march_first() -> None:
    assert certification_dates(W, 5)[0] == date(2017, 3, 1)
    assert certification_dates(W, 5)[-1] == date(2021, 3, 1)


def test_reminders_already_past_are_not_given() -> None:
    due = date(2017, 3, 1)
    assert [r["remind_on"] for r in reminders("x", due, date(2017, 1, 15))] == ["2017-01-30"]
    assert reminders("x", None, date(2017, 1, 15)) == []


@given(st.integers(1, 10**9), st.integers(0, 2000), st.integers(0, 2000))
def test_the_sliding_exposure_never_grows_and_ends_at_nothing(amount: int, a: int, b: int) -> None:
    early, late = sorted((a, b))
    first = exposure_cents(amount, W, W.starts_on + timedelta(days=early), "sliding")
    then = exposure_cents(amount, W, W.starts_on + timedelta(days=late), "sliding")
    assert 0 <= then <= first <= amount
    assert exposure_cents(amount, W, W.ends_on, "sliding") == 0
    assert exposure_cents(amount, W, W.ends_on, "full") == amount


def test_the_window_is_open_from_its_first_to_its_last_day() -> None:
    assert W.is_open(W.starts_on) and W.is_open(W.ends_on)
    assert not W.is_open(W.ends_on + timedelta(days=1))
    assert exposure_cents(100, W, W.starts_on - timedelta(days=1), "sliding") == 100


def test_an_unknown_scale_is_refused_and_a_next_date_is_found() -> None:
    import pytest

    from market.domain.errors import InvalidRequestError
    from market.domain.rules.covenants import next_on_or_after

    with pytest.raises(InvalidRequestError):
        exposure_cents(100, W, W.starts_on, "weekly")
    assert next_on_or_after([date(2017, 3, 1), date(2018, 3, 1)], date(2017, 3, 2)) == date(
        2018, 3, 1
    )
    assert next_on_or_after([date(2017, 3, 1)], date(2017, 3, 2)) is None


def test_nothing_is_at_stake_once_the_window_has_ended_on_either_scale() -> None:
    after = W.ends_on + timedelta(days=1)
    assert exposure_cents(100, W, after, "sliding") == 0
    assert exposure_cents(100, W, after, "full") == 0
    assert exposure_cents(100, W, W.ends_on, "full") == 100  # the last day still counts
