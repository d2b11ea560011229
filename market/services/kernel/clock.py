"""The business date (PRODUCT.md 8.4): what every rule reading "today" uses.

`MARKET_TODAY` (an ISO date) fixes it, so a past era's rules can be demonstrated and
tested coherently; unset, it is today's calendar date in New York (CMN-1). The real
clock (`now_utc`) is never fixed: `recorded_at` and receipt instants always keep it.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

NEW_YORK = ZoneInfo("America/New_York")

_business_date: date | None = None


def parse_business_date(value: str | None) -> date | None:
    """`MARKET_TODAY` as a date; empty or unset is None. A malformed value is refused at
    start-up rather than guessed at."""
    if value is None or not value.strip():
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError as exc:
        raise ValueError(f"MARKET_TODAY must be an ISO date (YYYY-MM-DD), not {value!r}") from exc


def configure(value: str | date | None) -> None:
    """Set by create_app from the MARKET_TODAY setting (None: the real New York date)."""
    global _business_date
    if isinstance(value, str):
        value = parse_business_date(value)
    _business_date = value


def is_fixed() -> bool:
    """Whether MARKET_TODAY (or configure) fixes the business date."""
    return _business_date is not None


def now_utc() -> datetime:
    return datetime.now(UTC)


def now_business() -> datetime:
    """The business date at the real New York time of day: the receipt stamp (TB-6). Unset
    MARKET_TODAY, it is simply now in New York."""
    now = datetime.now(NEW_YORK)
    if _business_date is None:
        return now
    return datetime.combine(_business_date, now.timetz().replace(tzinfo=None), NEW_YORK)


def today() -> date:
    """The business date: MARKET_TODAY if set, else today's date in New York."""
    if _business_date is not None:
        return _business_date
    return datetime.now(NEW_YORK).date()
