"""Money, ratio and fiscal-year values (CMN-1, CMN-2, AMB-3).

Money is an ``int`` of cents; ratios are exact ``Fraction``s; FY N ends June 30 of N.
"""

from __future__ import annotations

import math
import re
from datetime import date
from fractions import Fraction

from market.domain.errors import InvalidRequestError

FY_START_MONTH = 7

_RATIO = re.compile(r"^(?:\d+/\d+|\d+(?:\.\d+)?|\.\d+)$")


def fiscal_year(d: date) -> int:
    return d.year + (1 if d.month >= FY_START_MONTH else 0)


def fiscal_year_start(fy: int) -> date:
    return date(fy - 1, FY_START_MONTH, 1)


def fiscal_year_end(fy: int) -> date:
    return date(fy, 6, 30)


def parse_ratio(text: str) -> Fraction:
    """Parse "0.437512" or "3/4" exactly; never through a float."""
    cleaned = text.strip() if isinstance(text, str) else ""
    if not _RATIO.match(cleaned):
        raise InvalidRequestError(
            f"{text!r} is not a non-negative decimal or fraction", {"value": str(text)}
        )
    try:
        return Fraction(cleaned)
    except ZeroDivisionError:
        raise InvalidRequestError(f"{text!r} divides by zero", {"value": str(text)}) from None


def round_half_up(x: Fraction) -> int:
    """Round to the nearest integer, halves away from zero (the usual money convention)."""
    magnitude = math.floor(abs(x) + Fraction(1, 2))
    return magnitude if x >= 0 else -magnitude


def floor_int(x: Fraction) -> int:
    return math.floor(x)


def ceil_int(x: Fraction) -> int:
    return math.ceil(x)


def format_cents(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars:,}.{rest:02d}"


def ratio_bps(numer_cents: int, denom_cents: int) -> Fraction:
    """The exact ratio numer/denom expressed in basis points (7500 = 75%)."""
    if denom_cents == 0:
        raise InvalidRequestError("a ratio needs a non-zero denominator", {"denominator": 0})
    return Fraction(numer_cents * 10_000, denom_cents)


def percent_text(ratio: Fraction, places: int = 4) -> str:
    """A ratio as a percentage truncated (never rounded up) to ``places`` decimals."""
    scaled = math.floor(ratio * 100 * 10**places)
    whole, frac = divmod(scaled, 10**places)
    return f"{whole}.{frac:0{places}d}%" if places else f"{whole}%"


def add_years(d: date, years: int) -> date:
    """The anniversary ``years`` later; a 29 February start lands on 1 March."""
    try:
        return d.replace(year=d.year + years)
    except ValueError:
        return date(d.year + years, 3, 1)
