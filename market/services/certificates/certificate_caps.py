"""The caps report: each program cap or pool's `cap_usage` row for a fiscal year (the
buckets, their ids and ceilings are the domain's: market.domain.rules.buckets), and the
certificates waiting in the digital media queue behind its "queued" figures.

Cap usage lives in `cap_usage` rows `f"{bucket}:{fy}"` (fy 0 for the UTH cumulative cap),
created on first use with the ruleset's cap. For a digital media pool, `queued_cents` is
counted on the row of the FY the amount was deferred from, until it is allowed.
"""

from __future__ import annotations

from typing import Any

from market.domain.rules import dm_queue
from market.domain.rules.buckets import BUCKETS, bucket_cap_cents, report_cap_id
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.reads import Connection, repositories

POOLS = (dm_queue.DM_CBT, dm_queue.DM_GIT_FILM_POOL)


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


def queued_certificates(conn: Connection, actor: Actor) -> list[dict[str, Any]]:
    """The certificates with cents deferred in a digital media pool (DMQ-3), in queue
    order per pool: number, holder, the fiscal year deferred from and what still waits.
    A participant sees its own only (another party's pending credit is not its business)."""
    found = []
    for pool in POOLS:
        for entry in repositories(conn).queue.waiting(pool):
            cert = repositories(conn).certificates.get(str(entry["id"]))
            if cert is None:
                continue
            own = actor.party_id == cert["holder_party_id"]
            if actor.role not in (AUTHORITY, AUDITOR) and not own:
                continue
            found.append(
                {
                    "pool": pool,
                    "position": int(entry["position"]),
                    "number": cert["number"],
                    "holder_party_id": cert["holder_party_id"],
                    "origin_fiscal_year": int(entry["origin_fiscal_year"]),
                    "remaining_cents": int(entry["remaining_cents"]),
                }
            )
    return found
