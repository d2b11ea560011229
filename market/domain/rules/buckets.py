"""Cap buckets: the cap a charge counts against, the row it is kept on and, for UTH, the
fiscal year an installment is charged to (CMN-1, CMN-4(c), BR-12, UTH-12, UTH-13, DMQ-1,
TB-5, TB-11; AMB-4, AMB-13, AMB-23).

Usage is kept per bucket and fiscal year under `cap_id(bucket, fy)`, fy 0 for the UTH
cumulative cap. A UTH installment is charged to the FY in which its credited tax period
commences (UTH-13 default), or with the ruleset's `approval` reading to the FY of the
business date of issuance."""

from __future__ import annotations

from datetime import date

from market.domain.rules import uth
from market.domain.rulesets import Ruleset

BUCKETS = (
    "BRRAG",
    "UTH",
    "UTH_CUMULATIVE",
    "DM_CBT",
    "DM_GIT_FILM_POOL",
    "TECH",
    "TECH_ZONE_SET_ASIDE",
)
LIFETIME = 0  # the fiscal year of a lifetime bucket's row (UTH_CUMULATIVE)


def cap_id(bucket: str, fiscal_year: int) -> str:
    return f"{bucket}:{fiscal_year}"


def bucket_cap_cents(bucket: str, ruleset: Ruleset) -> int:
    """The ruleset's cap (or pool) of a bucket, in cents."""
    caps = {
        "BRRAG": ruleset.brrag_fy_cap_cents,
        "UTH": ruleset.uth_fy_cap_cents,
        "UTH_CUMULATIVE": ruleset.uth_cumulative_cap_cents,
        "DM_CBT": ruleset.dm_cbt_pool_cents,
        "DM_GIT_FILM_POOL": ruleset.dm_git_film_pool_cents,
        "TECH": ruleset.tech_fy_cap_cents,
        "TECH_ZONE_SET_ASIDE": ruleset.tech_zone_setaside_cents,
    }
    return caps[bucket]


def report_cap_id(bucket: str, fiscal_year: int) -> str:
    """The row a fiscal year's report reads for a bucket (a lifetime bucket has one)."""
    return cap_id(bucket, LIFETIME if bucket == "UTH_CUMULATIVE" else fiscal_year)


def uth_period_fiscal_year(
    period: int, ruleset: Ruleset, issued_on: date, start_month: int | None = None
) -> int:
    """UTH-13 / AMB-13: the FY in which tax period P commences (January 1 of P for a
    calendar-year filer, so FY P; July 1 of P, FY P+1), or with the ruleset's `approval`
    reading the FY of `issued_on`, the business date of issuance."""
    commences = uth.period_commences_on(period, ruleset, start_month)
    return uth.bucket_fiscal_year(commences, issued_on, ruleset)
