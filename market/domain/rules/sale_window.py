"""A credit nobody can use any more is not sold (PRODUCT.md 8.4; BR-11, UTH-10, DMG-6,
DMC-6, TB-27, CMN-6).

A certificate is usable through the last tax year (or UTH tax period) of its carryforward
window: its `carryover_last_year` or, for UTH, the latest `carryforward_last_period` of an
installment not yet sold. Whether a buyer could still use it on a given business date is
a reading of the statute (ruleset `sale_window_reading`):

- ``latest_period_end`` (default): a tax period labelled L may be a fiscal year that
  begins as late as December 31 of L, so it can run to December 30 of L+1; the window is
  open for some buyer through December 31 of L+1 and closed from January 1 of L+2.
- ``calendar_year``: only calendar-year filers count; closed from January 1 of L+1.

No window on record (a TECH NOL amount, AMB-45) never closes here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from market.domain.errors import DomainError
from market.domain.rulesets import Ruleset

SALE_WINDOW_READINGS = ("latest_period_end", "calendar_year")


class CarryforwardExpiredError(DomainError):
    code = "carryforward_expired"


def usable_through(
    carryover_last_year: int | None, tranches: Iterable[Mapping[str, Any]] | None
) -> int | None:
    """The last tax year any holder of the certificate's unsold credit could use it in."""
    if tranches is not None:
        lasts = [
            int(t["carryforward_last_period"])
            for t in tranches
            if int(t.get("unsold_cents", t.get("cents", 0))) > 0
        ]
        return max(lasts) if lasts else None
    return carryover_last_year


def usable_until(last_year: int | None, ruleset: Ruleset) -> date | None:
    """The last business date on which some buyer could still use the credit."""
    if last_year is None:
        return None
    reading = ruleset.reading("sale_window_reading", SALE_WINDOW_READINGS)
    return date(last_year + (1 if reading == "latest_period_end" else 0), 12, 31)


def check_sellable(last_year: int | None, on: date, ruleset: Ruleset) -> str:
    """Refuse a sale on `on` of a credit whose window has closed for every buyer; else say
    how long it is usable."""
    until = usable_until(last_year, ruleset)
    if until is None:
        return "No carryforward window is on record for this credit, so none has closed."
    if on > until:
        raise CarryforwardExpiredError(
            f"The credit is usable through tax year {last_year} only; on {on.isoformat()} no "
            f"buyer has a tax period that could still use it (window closed after "
            f"{until.isoformat()}), so it cannot be sold (BR-11, UTH-10, DMG-6; PRODUCT.md 8.4).",
            {
                "usable_through": last_year,
                "usable_until": until.isoformat(),
                "on": on.isoformat(),
            },
        )
    return (
        f"The credit is usable through tax year {last_year}: a buyer's tax period can still "
        f"use it until {until.isoformat()}."
    )
