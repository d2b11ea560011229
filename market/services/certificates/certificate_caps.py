"""The caps report: each program cap or pool's `cap_usage` row for a fiscal year (the
buckets, their ids and ceilings are the domain's: market.domain.rules.buckets).

Cap usage lives in `cap_usage` rows `f"{bucket}:{fy}"` (fy 0 for the UTH cumulative cap),
created on first use with the ruleset's cap. For a digital media pool, `queued_cents` is
counted on the row of the FY the amount was deferred from, until it is allowed.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from market.domain.rules.buckets import BUCKETS, bucket_cap_cents, report_cap_id
from market.domain.rulesets import Ruleset
from market.services.kernel.reads import repositories


def caps_report(conn: Connection, fiscal_year: int, ruleset: Ruleset) -> dict[str, Any]:
    """One row per program cap or pool for the fiscal year; UTH_CUMULATIVE is lifetime."""
    programs = []
    for bucket in BUCKETS:
        row = repositories(conn).caps.get(report_cap_id(bucket, fiscal_year))
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
