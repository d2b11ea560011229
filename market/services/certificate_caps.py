"""Program caps and pools as `cap_usage` rows: their ids, their ceilings, the UTH
installment's fiscal year (UTH-13, AMB-13), and the caps report.

Cap usage lives in `cap_usage` rows `f"{bucket}:{fy}"` (fy 0 for the UTH cumulative cap),
created on first use with the ruleset's cap. For a digital media pool, `queued_cents` is
counted on the row of the FY the amount was deferred from, until it is allowed.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.tables import CapUsage
from market.domain.rules import uth
from market.domain.rulesets import Ruleset
from market.services import clock

caps_t = CapUsage.__table__  # type: ignore[attr-defined]


BUCKETS = (
    "BRRAG",
    "UTH",
    "UTH_CUMULATIVE",
    "DM_CBT",
    "DM_GIT_FILM_POOL",
    "TECH",
    "TECH_ZONE_SET_ASIDE",
)


def cap_id(bucket: str, fiscal_year: int) -> str:
    return f"{bucket}:{fiscal_year}"


def bucket_cap_cents(bucket: str, ruleset: Ruleset) -> int:
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


def uth_period_fiscal_year(period: int, ruleset: Ruleset, start_month: int | None = None) -> int:
    """UTH-13 / AMB-13: the FY in which tax period P commences (uth.period_commences_on:
    January 1 of P for a calendar-year filer, so FY P; July 1 of P, FY P+1), or with the
    ruleset's `approval` reading the FY of the business date of issuance."""
    commences = uth.period_commences_on(period, ruleset, start_month)
    return uth.bucket_fiscal_year(commences, clock.today(), ruleset)


def cap_used(conn: Connection, key: str) -> int:
    """Cents a cap row (`cap_id`) has charged; 0 before its first charge."""
    found = conn.execute(select(caps_t.c.used_cents).where(caps_t.c.id == key)).scalar()
    return int(found or 0)


def caps_report(conn: Connection, fiscal_year: int, ruleset: Ruleset) -> dict[str, Any]:
    """One row per program cap or pool for the fiscal year; UTH_CUMULATIVE is lifetime."""
    programs = []
    for bucket in BUCKETS:
        key = cap_id(bucket, 0 if bucket == "UTH_CUMULATIVE" else fiscal_year)
        row = conn.execute(select(caps_t).where(caps_t.c.id == key)).mappings().first()
        cap = int(row["cap_cents"]) if row is not None else bucket_cap_cents(bucket, ruleset)
        used = int(row["used_cents"]) if row is not None else 0
        queued = int(row["queued_cents"]) if row is not None else 0
        programs.append(
            {
                "program": bucket,
                "cap_cents": cap,
                "used_cents": used,
                "queued_cents": queued,
                "remaining_cents": max(0, cap - used),
            }
        )
    return {"fiscal_year": fiscal_year, "programs": programs}
