"""The caps report: each program cap or pool's `cap_usage` row for a fiscal year (the
buckets, their ids and ceilings are the domain's: market.domain.rules.buckets), and the
certificates waiting in the digital media queue behind its "queued" figures.

Cap usage lives in `cap_usage` rows `f"{bucket}:{fy}"` (fy 0 for the UTH cumulative cap),
created on first use with the ruleset's cap. For a digital media pool, `queued_cents` is
counted on the row of the FY the amount was deferred from, until it is allowed.
"""

from __future__ import annotations

from typing import TypedDict

from market.domain.rules import dm_queue
from market.domain.rules.buckets import BUCKETS, bucket_cap_cents, report_cap_id
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.reads import Connection, repositories

POOLS = (dm_queue.DM_CBT, dm_queue.DM_GIT_FILM_POOL)


class ProgramCap(TypedDict):
    program: str
    cap_cents: int
    used_cents: int
    queued_cents: int
    remaining_cents: int


class CapsReport(TypedDict):
    fiscal_year: int
    programs: list[ProgramCap]


class QueuedCertificate(TypedDict):
    """A certificate waiting in a digital media pool, as the caps page lists it."""

    pool: str
    position: int
    number: str
    holder_party_id: str
    origin_fiscal_year: int
    remaining_cents: int


def caps_report(conn: Connection, fiscal_year: int, ruleset: Ruleset) -> CapsReport:
    """One row per program cap or pool for the fiscal year; UTH_CUMULATIVE is lifetime."""
    programs = []
    for bucket in BUCKETS:
        use = repositories(conn).caps.load(report_cap_id(bucket, fiscal_year))
        cap = use.cap_cents if use is not None else bucket_cap_cents(bucket, ruleset)
        used = use.used_cents if use is not None else 0
        queued = use.queued_cents if use is not None else 0
        programs.append(
            ProgramCap(
                program=bucket,
                cap_cents=cap,
                used_cents=used,
                queued_cents=queued,
                remaining_cents=max(0, cap - used),
            )
        )
    return CapsReport(fiscal_year=fiscal_year, programs=programs)


def queued_certificates(conn: Connection, actor: Actor) -> list[QueuedCertificate]:
    """The certificates with cents deferred in a digital media pool (DMQ-3), in queue
    order per pool: number, holder, the fiscal year deferred from and what still waits.
    A participant sees its own only (another party's pending credit is not its business)."""
    found = []
    for pool in POOLS:
        for entry in repositories(conn).queue.waiting(pool):
            cert = repositories(conn).certificates.load(entry.id)
            if cert is None:
                continue
            own = actor.party_id == cert.holder_party_id
            if actor.role not in (AUTHORITY, AUDITOR) and not own:
                continue
            found.append(
                QueuedCertificate(
                    pool=pool,
                    position=entry.position,
                    number=cert.number,
                    holder_party_id=cert.holder_party_id,
                    origin_fiscal_year=entry.origin_fiscal_year,
                    remaining_cents=entry.remaining_cents,
                )
            )
    return found
