"""ADM-9: BRRAG's Governor period in New Jersey working days (the `holidays` calendar)."""

from __future__ import annotations

from datetime import date

from market.domain.rulesets import A1178
from market.services.casefiles import working_days


def test_state_holidays_and_weekends_are_not_working_days() -> None:
    assert not working_days.is_working_day(date(2024, 11, 5))  # Election Day, a State holiday
    assert not working_days.is_working_day(date(2024, 11, 11))  # Veterans Day
    assert not working_days.is_working_day(date(2024, 11, 9))  # a Saturday
    assert working_days.is_working_day(date(2024, 11, 6))


def test_ten_working_days_skip_holidays() -> None:
    # Fri Nov 1, 2024: Nov 5 and Nov 11 are State holidays.
    assert working_days.governor_period_ends(date(2024, 11, 1), A1178) == date(2024, 11, 19)
    # Christmas and New Year's Day inside the period.
    assert working_days.governor_period_ends(date(2024, 12, 20), A1178) == date(2025, 1, 7)


def test_board_action_waits_unless_approved_earlier_or_vetoed() -> None:
    received = date(2024, 11, 1)
    state, day = working_days.board_action_state(received, date(2024, 11, 19), A1178)
    assert (state, day) == ("awaiting_governor", date(2024, 11, 20))
    assert working_days.board_action_state(received, date(2024, 11, 20), A1178)[0] == "in_effect"
    early = working_days.board_action_state(
        received, date(2024, 11, 8), A1178, approved_on=date(2024, 11, 7)
    )
    assert early == ("in_effect", date(2024, 11, 7))
    vetoed = working_days.board_action_state(
        received, date(2024, 11, 25), A1178, vetoed_on=date(2024, 11, 15)
    )
    assert vetoed == ("vetoed", None)
