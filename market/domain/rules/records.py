"""Facts arriving from existing records (PRODUCT.md 9.1, 9.2): a party's NAICS industry
and employees by year, and money and dates as people type them in a spreadsheet.

Money: "1,234.56", "1234.56", "$1,234.56" (thousands separators only in groups of three)
become integer cents exactly (Decimal, never float); more than two decimals, a negative
amount or anything else is refused. NAICS 2022: a code is 2 to 6 digits whose first two
are one of the 20 sectors (31-33, 44-45 and 48-49 are ranges)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation

from market.domain.errors import DomainError

# NAICS 2022 sectors (two-digit codes) and their titles.
NAICS_SECTORS: Mapping[str, str] = {
    "11": "Agriculture, Forestry, Fishing and Hunting",
    "21": "Mining, Quarrying, and Oil and Gas Extraction",
    "22": "Utilities",
    "23": "Construction",
    "31": "Manufacturing",
    "32": "Manufacturing",
    "33": "Manufacturing",
    "42": "Wholesale Trade",
    "44": "Retail Trade",
    "45": "Retail Trade",
    "48": "Transportation and Warehousing",
    "49": "Transportation and Warehousing",
    "51": "Information",
    "52": "Finance and Insurance",
    "53": "Real Estate and Rental and Leasing",
    "54": "Professional, Scientific, and Technical Services",
    "55": "Management of Companies and Enterprises",
    "56": "Administrative and Support and Waste Management and Remediation Services",
    "61": "Educational Services",
    "62": "Health Care and Social Assistance",
    "71": "Arts, Entertainment, and Recreation",
    "72": "Accommodation and Food Services",
    "81": "Other Services (except Public Administration)",
    "92": "Public Administration",
}
# The sector a report groups by: the ranges share one label.
SECTOR_GROUP: Mapping[str, str] = {
    "31": "31-33",
    "32": "31-33",
    "33": "31-33",
    "44": "44-45",
    "45": "44-45",
    "48": "48-49",
    "49": "48-49",
}
UNKNOWN_SECTOR = "unknown"

# Size classes by employees (the count for the report's year): the SBA-style bands the
# Director's distribution tables use.
SIZE_CLASSES: tuple[tuple[str, int, int | None], ...] = (
    ("0-9", 0, 9),
    ("10-49", 10, 49),
    ("50-99", 50, 99),
    ("100-499", 100, 499),
    ("500+", 500, None),
)
UNKNOWN_SIZE = "unknown"

_MONEY = re.compile(r"^\$?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$")
_NAICS = re.compile(r"^\d{2,6}$")


class RecordValueError(DomainError):
    """A value in a record that is not what its field holds; `code` names the problem."""

    def __init__(self, code: str, message: str, details: dict[str, object] | None = None):
        super().__init__(message, details)
        self.code = code


def parse_cents(text: str, field: str) -> int:
    """Dollars as typed ("1,234.56", "1234.56", "$1,234.56", "1234") as exact cents."""
    raw = text.strip()
    if raw.startswith("-") or raw.startswith("$-") or (raw.startswith("(") and raw.endswith(")")):
        raise RecordValueError("negative_amount", f"{field} must not be negative: {raw!r}.")
    match = _MONEY.match(raw)
    if match is None:
        raise RecordValueError(
            "invalid_amount", f"{field} {raw!r} is not an amount in dollars like 1,234.56."
        )
    decimals = match.group(3) or ""
    if len(decimals) > 3:  # the dot and more than two digits
        raise RecordValueError(
            "too_many_decimals", f"{field} {raw!r} has more than two decimals (cents)."
        )
    try:
        value = Decimal(raw.lstrip("$").replace(",", ""))
    except InvalidOperation:  # pragma: no cover - the pattern admits only digits
        raise RecordValueError("invalid_amount", f"{field} {raw!r} is not an amount.") from None
    return int(value * 100)


def parse_date(text: str, field: str) -> date:
    """An ISO date (YYYY-MM-DD) that exists on the calendar."""
    raw = text.strip()
    try:
        if len(raw) != 10:
            raise ValueError(raw)
        return date.fromisoformat(raw)
    except ValueError:
        raise RecordValueError(
            "invalid_date", f"{field} {raw!r} is not a date that exists (YYYY-MM-DD)."
        ) from None


def check_naics(code: str) -> str:
    """A NAICS 2022 code: 2 to 6 digits whose first two are a sector."""
    if not _NAICS.match(code) or code[:2] not in NAICS_SECTORS:
        raise RecordValueError(
            "invalid_naics",
            f"NAICS code {code!r} is not 2 to 6 digits of a NAICS 2022 sector.",
            {
                "naics_code": code,
                "sectors": sorted({SECTOR_GROUP.get(s, s) for s in NAICS_SECTORS}),
            },
        )
    return code


def check_employees(by_year: Mapping[str, int]) -> dict[str, int]:
    """Employees by year: four-digit years, counts at least zero."""
    checked: dict[str, int] = {}
    for year, count in by_year.items():
        if not re.fullmatch(r"\d{4}", str(year)) or isinstance(count, bool) or count < 0:
            raise RecordValueError(
                "invalid_employees",
                f"Employees by year needs four-digit years and counts of 0 or more, "
                f"not {year!r}: {count!r}.",
                {"year": str(year)},
            )
        checked[str(year)] = int(count)
    return dict(sorted(checked.items()))


def parse_employees(text: str) -> dict[str, int]:
    """ "2024:120;2025:130" as {"2024": 120, "2025": 130}."""
    found: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        year, sep, count = part.partition(":")
        if not sep or not count.strip().isdigit():
            raise RecordValueError(
                "invalid_employees", f"Employees {part!r} is not YEAR:COUNT (2025:120)."
            )
        found[year.strip()] = int(count.strip())
    return check_employees(found)


def sector_of(naics_code: str | None) -> str:
    if not naics_code:
        return UNKNOWN_SECTOR
    two = naics_code[:2]
    return SECTOR_GROUP.get(two, two)


def size_class(employees: int | None) -> str:
    if employees is None:
        return UNKNOWN_SIZE
    for label, low, high in SIZE_CLASSES:
        if employees >= low and (high is None or employees <= high):
            return label
    return UNKNOWN_SIZE


def employees_in(by_year: Mapping[str, int], year: int) -> int | None:
    """The count for `year`, else the latest year before it, else None."""
    years = [int(y) for y in by_year if int(y) <= year]
    return by_year[str(max(years))] if years else None
