"""The TECH seller's covenants after a sale (TB-25, TB-40, AMB-46, AMB-47; PRODUCT.md 8.3
covenant monitor).

- Headquarters (TB-40(b)): each transfer starts its own window on the PFA receipt date
  (the exchange date) and ends `tech_hq_years` later (AMB-47). If the seller moved its
  headquarters out of New Jersey today, the benefit sold by that transfer could be
  recaptured (unless the move results from liquidation). The exposure is read on a
  sliding scale by default (ruleset `tech_hq_recapture_scale`): the share of the window
  still to run, amount x days left / days in the window, rounded down to the cent, so it
  falls to nothing on the window's last day; "full" keeps the whole amount at stake until
  the window ends. RULES.md leaves the amount to the Authority (AMB-46): this is a
  measure of exposure, not an assessment.
- Use of proceeds (TB-25, TB-40(a)): the seller certifies each year, on the anniversaries
  of the PFA receipt while the window runs, that the proceeds fund its NJ operating
  expenses.
- Reminders fall `REMINDER_DAYS` before each of those dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from market.domain.errors import InvalidRequestError
from market.domain.values import add_years

REMINDER_DAYS = (90, 30)
SCALES = ("sliding", "full")


@dataclass(frozen=True)
class Window:
    starts_on: date
    ends_on: date

    @property
    def days(self) -> int:
        return (self.ends_on - self.starts_on).days

    def days_left(self, today: date) -> int:
        return max(0, (self.ends_on - today).days)

    def is_open(self, today: date) -> bool:
        return self.starts_on <= today <= self.ends_on


def exposure_cents(amount_cents: int, window: Window, today: date, scale: str) -> int:
    if scale not in SCALES:
        raise InvalidRequestError(
            f"tech_hq_recapture_scale {scale!r} is not one of {', '.join(SCALES)}.", {}
        )
    if today > window.ends_on:
        return 0
    if scale == "full" or today < window.starts_on or window.days == 0:
        return amount_cents
    return amount_cents * window.days_left(today) // window.days


def certification_dates(window: Window, years: int) -> list[date]:
    """The anniversaries of the PFA receipt within the window (TB-25)."""
    return [
        d
        for d in (add_years(window.starts_on, n) for n in range(1, years + 1))
        if d <= window.ends_on
    ]


def next_on_or_after(dates: list[date], today: date) -> date | None:
    return next((d for d in dates if d >= today), None)


def reminders(kind: str, due: date | None, today: date) -> list[dict[str, str]]:
    """The reminder dates still to come for a date due."""
    if due is None:
        return []
    found = []
    for days in REMINDER_DAYS:
        on = due - timedelta(days=days)
        if on >= today:
            found.append({"kind": kind, "remind_on": on.isoformat(), "due_on": due.isoformat()})
    return found
