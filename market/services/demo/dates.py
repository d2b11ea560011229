"""The demo's calendar: every date the demo writes is computed from the business date it
is seeded on (MARKET_TODAY if set, else today in New York), so the market is alive on
whatever day it is built: the current fiscal year's TECH intake open, the last one's
allocated, credits inside their carryforward windows, recent exchanges."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from market.domain.values import fiscal_year, fiscal_year_start

# UTH-5: the application is due within 5 years and the documentation within 8 years of
# P.L.2007, c.346 (January 2008), so the Authority's first approval, which starts the
# ten installments (UTH-7), comes no later than the 2015 tax period. Each installment
# then carries forward 20 periods (UTH-10): a UTH credit is still alive decades later.
UTH_LAST_FIRST_PERIOD = 2015


@dataclass(frozen=True)
class DemoDates:
    today: date

    @property
    def year(self) -> int:
        """The calendar (tax) year of the business date: a BRRAG credit's period of issue."""
        return self.today.year

    @property
    def fiscal_year(self) -> int:
        """The State fiscal year of the business date: its TECH intake is open."""
        return fiscal_year(self.today)

    @property
    def tech_allocated_year(self) -> int:
        """The fiscal year whose TECH intake closed last June 30: allocated and committed."""
        return self.fiscal_year - 1

    @property
    def uth_first_period(self) -> int:
        return min(self.year - 2, UTH_LAST_FIRST_PERIOD)

    def days_ago(self, days: int) -> date:
        """A recent date, never before the current fiscal year began."""
        return max(fiscal_year_start(self.fiscal_year), self.today - timedelta(days=days))

    def allocated_year_receipt(self, day: int) -> date:
        """A receipt in March of the allocated fiscal year (its normal filing window)."""
        return date(self.tech_allocated_year, 3, day)

    def income_by_year(self, cents: int) -> dict[str, int]:
        """Operating income for the recent full years (the TECH profit test, TB-4)."""
        return {str(y): cents for y in range(self.year - 5, self.year + 1)}
