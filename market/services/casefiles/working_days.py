"""New Jersey State working days and BRRAG's Governor period (ADM-9, N.J.A.C. 19:31N-1.6).

The Board's minutes go to the Governor; its action takes effect after 10 working days of
the Governor's receipt unless the Governor approves earlier or vetoes. Working days are
State business days: weekends and New Jersey State holidays excluded, the holidays from
the maintained `holidays` calendar (United States, subdivision NJ), not a list kept here.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import cache

import holidays

from market.domain.rulesets import Ruleset


@cache
def _state_holidays(year: int) -> frozenset[date]:
    return frozenset(holidays.country_holidays("US", subdiv="NJ", years=year))


def is_working_day(day: date) -> bool:
    return day.weekday() < 5 and day not in _state_holidays(day.year)


def add_working_days(start: date, days: int) -> date:
    """The `days`-th working day after `start` (not counting `start`)."""
    day, counted = start, 0
    while counted < days:
        day += timedelta(days=1)
        if is_working_day(day):
            counted += 1
    return day


def governor_period_ends(received_on: date, ruleset: Ruleset) -> date:
    """The last working day of the Governor's period; the action takes effect the day after
    unless approved earlier or vetoed."""
    return add_working_days(received_on, ruleset.adm_brrag_governor_working_days)


def board_action_state(
    received_on: date,
    on: date,
    ruleset: Ruleset,
    approved_on: date | None = None,
    vetoed_on: date | None = None,
) -> tuple[str, date | None]:
    """(`vetoed` | `in_effect` | `awaiting_governor`, the day it takes or took effect):
    the day after the period ends, or the Governor's earlier approval; a veto within the
    period stops it."""
    effective = governor_period_ends(received_on, ruleset) + timedelta(days=1)
    if approved_on is not None and approved_on < effective:
        effective = max(approved_on, received_on)
    if vetoed_on is not None and vetoed_on <= on and vetoed_on < effective:
        return "vetoed", None
    return ("in_effect", effective) if on >= effective else ("awaiting_governor", effective)
