"""Jinja filters: money in dollars from integer cents, exact ratios as percentages, and
prices as this market quotes them: cents on the dollar of credit."""

from __future__ import annotations

from datetime import UTC, date, datetime
from fractions import Fraction

from flask import Flask

from market.domain.rules.tech_eligibility import REASON_TEXT
from market.domain.values import format_cents
from market.services.kernel.clock import NEW_YORK
from market.web.price_chart import PROGRAM_NAMES


def money(cents: int | None) -> str:
    return "—" if cents is None else format_cents(int(cents))


def percent_of(numerator: int, denominator: int, places: int = 2) -> str:
    if not denominator:
        return "—"
    value = Fraction(int(numerator) * 100, int(denominator))
    scaled = round(value * 10**places)  # display rounding only; decisions use exact values
    return f"{scaled / 10**places:.{places}f}%"


def per_dollar(price_cents: int | None, amount_cents: int | None) -> str:
    """A price for an amount of credit in cents on the dollar: 90.5¢ per $1. Display
    only, truncated to a tenth of a cent so a price below a floor never reads as at it."""
    if price_cents is None or not amount_cents:
        return "—"
    tenths = Fraction(int(price_cents) * 1000, int(amount_cents))
    shown = int(tenths)  # truncate: a price just under 75¢ never reads as 75.0¢
    whole, tenth = divmod(shown, 10)
    return f"{whole}¢ per $1" if tenth == 0 else f"{whole}.{tenth}¢ per $1"


def ny_time(value: str | datetime | None) -> str:
    """An instant (ISO text or datetime, UTC when naive) in New York time, as people there
    read it: 2026-12-02 1:32 pm EST. A bare date stays a date."""
    if value is None or value == "":
        return "—"
    if isinstance(value, str):
        if len(value) == 10:
            return value
        value = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if not isinstance(value, datetime):
        return value.isoformat() if isinstance(value, date) else str(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    local = value.astimezone(NEW_YORK)
    hour = local.hour % 12 or 12
    half = "am" if local.hour < 12 else "pm"
    return f"{local:%Y-%m-%d} {hour}:{local:%M} {half} {local.tzname()}"


# A TECH eligibility code in words, without the figures its message is built with.
_COUNTS = {
    "too_many_us_employees": "has too many employees in the United States",
    "too_few_nj_employees": "has too few full-time employees in New Jersey for its age",
}


def tech_reason(code: str) -> str:
    return _COUNTS.get(code) or REASON_TEXT.get(code) or code.replace("_", " ")


def program_name(program: str | None) -> str:
    return PROGRAM_NAMES.get(program or "", program or "")


def register(app: Flask) -> None:
    app.jinja_env.filters["money"] = money
    app.jinja_env.filters["percent_of"] = percent_of
    app.jinja_env.filters["per_dollar"] = per_dollar
    app.jinja_env.filters["ny_time"] = ny_time
    app.jinja_env.filters["program_name"] = program_name
    app.jinja_env.filters["tech_reason"] = tech_reason
