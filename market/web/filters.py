"""Jinja filters: money in dollars from integer cents, exact ratios as percentages."""

from __future__ import annotations

from fractions import Fraction

from flask import Flask

from market.domain.values import format_cents


def money(cents: int | None) -> str:
    return "—" if cents is None else format_cents(int(cents))


def percent_of(numerator: int, denominator: int, places: int = 2) -> str:
    if not denominator:
        return "—"
    value = Fraction(int(numerator) * 100, int(denominator))
    scaled = round(value * 10**places)  # display rounding only; decisions use exact values
    return f"{scaled / 10**places:.{places}f}%"


def register(app: Flask) -> None:
    app.jinja_env.filters["money"] = money
    app.jinja_env.filters["percent_of"] = percent_of
