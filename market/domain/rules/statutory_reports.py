"""The reports the statute asks for (PRODUCT.md 9.2), computed from `StatutoryLedger`
(the events folded) for one State fiscal year:

- `tech_program`: the Authority's report on the technology program: demand (applicants,
  eligible and not with the reasons counted, requested against allocated, zone and
  other), the FY cap used, the buyers and their industries, prices (under the price
  tape's thresholds), the proceeds' uses as certified, sellers near the lifetime cap,
  and the year before.
- `digital_media`: credits by program and tax, the pools, the queue and what it
  deferred, transfers and prices.
- `distribution`: the Director's view: credits granted, sold and used by industry, size
  class and jobs, with the mean credit per job.

Each answer says `empty: true` when the year saw no activity of its kind."""

from __future__ import annotations

from collections import Counter
from typing import Any

from market.domain.rules.statutory_figures import (
    approved_in,
    exact_mean,
    grouped,
    party_sector,
    party_size,
    prices,
)
from market.domain.rules.statutory_ledger import StatutoryLedger
from market.domain.rulesets import Ruleset

DM_PROGRAMS = ("DM_GIT", "DM_CBT")
NEAR_LIFETIME_CAP = (8, 10)  # a seller at 80% or more of the lifetime cap is "near" it
JOB_BANDS: tuple[tuple[str, int, int | None], ...] = (
    ("1-24", 1, 24),
    ("25-99", 25, 99),
    ("100-249", 100, 249),
    ("250+", 250, None),
)


def _tech_demand(state: StatutoryLedger, fy: int) -> dict[str, Any]:
    apps = [a for a in state.applications.values() if a.fiscal_year == fy]
    allocated = {
        a["application_id"]: int(a["allocated_cents"]) for a in state.allocations.get(fy, [])
    }
    reasons: Counter[str] = Counter(r for a in apps if not a.eligible for r in a.reasons)

    def side(zone: bool) -> dict[str, Any]:
        mine = [a for a in apps if a.in_innovation_zone is zone]
        return {
            "applications": len(mine),
            "eligible": sum(1 for a in mine if a.eligible),
            "requested_cents": sum(a.requested_cents for a in mine if a.eligible),
            "allocated_cents": sum(allocated.get(a.id, 0) for a in mine),
        }

    return {
        "applications": len(apps),
        "applicants": len({a.party_id for a in apps}),
        "eligible": sum(1 for a in apps if a.eligible),
        "ineligible": sum(1 for a in apps if not a.eligible),
        "ineligible_reasons": [{"reason": r, "count": n} for r, n in sorted(reasons.items())],
        "requested_cents": sum(a.requested_cents for a in apps if a.eligible),
        "allocated_cents": sum(allocated.values()),
        "zone": side(True),
        "other": side(False),
        "allocation_run": fy in state.allocations,
    }


def tech_program(state: StatutoryLedger, fy: int, ruleset: Ruleset) -> dict[str, Any]:
    demand = _tech_demand(state, fy)
    sold = approved_in(state, fy, ("TECH",))
    buyers = grouped(
        sold,
        lambda t: party_sector(state, t.buyer_party_id),
        {"amount_cents": lambda t: t.amount_cents},
    )
    uses: Counter[str] = Counter(u for t in sold for u in t.use_of_proceeds)
    lifetime: Counter[str] = Counter()
    for c in state.certificates.values():
        if c.program == "TECH" and c.is_original and c.fiscal_year <= fy:
            lifetime[c.holder_party_id] += c.face_cents
    cap = ruleset.tech_lifetime_cap_cents
    near = [
        {
            "party_id": p,
            "name": state.parties[p].name if p in state.parties else p,
            "lifetime_cents": cents,
            "headroom_cents": max(0, cap - cents),
        }
        for p, cents in sorted(lifetime.items())
        if cents * NEAR_LIFETIME_CAP[1] >= cap * NEAR_LIFETIME_CAP[0]
    ]
    approved = sum(
        c.face_cents
        for c in state.certificates.values()
        if c.program == "TECH" and c.is_original and c.fiscal_year == fy
    )
    before = _tech_demand(state, fy - 1)
    return {
        "fiscal_year": fy,
        "empty": demand["applications"] == 0 and not sold and approved == 0,
        "demand": demand,
        "cap": {
            "fy_cap_cents": ruleset.tech_fy_cap_cents,
            "zone_setaside_cents": ruleset.tech_zone_setaside_cents,
            "used_cents": demand["allocated_cents"],
            "remaining_cents": max(0, ruleset.tech_fy_cap_cents - demand["allocated_cents"]),
        },
        "total_approved_cents": approved,
        "buyers": {
            "count": len({t.buyer_party_id for t in sold}),
            "by_industry": buyers,
        },
        "transfers": {
            "count": len(sold),
            "amount_cents": sum(t.amount_cents for t in sold),
            "consideration_cents": sum(t.consideration_cents for t in sold),
        },
        "prices": prices(sold),
        "use_of_proceeds": [{"use": u, "transfers": n} for u, n in sorted(uses.items())],
        "lifetime_cap": {"cap_cents": cap, "sellers_near_cap": near},
        "year_before": {
            "fiscal_year": fy - 1,
            "applications": before["applications"],
            "eligible": before["eligible"],
            "requested_cents": before["requested_cents"],
            "allocated_cents": before["allocated_cents"],
        },
    }


def digital_media(state: StatutoryLedger, fy: int) -> dict[str, Any]:
    certs = [
        c
        for c in state.certificates.values()
        if c.program in DM_PROGRAMS and c.is_original and c.fiscal_year == fy
    ]
    # As the year closed: cents a later year's pool took off the queue are that year's.
    later = Counter[str]()
    for a in state.pool_allowed:
        if a.fiscal_year > fy:
            later[a.certificate_id] += a.allowed_cents
    by_program = grouped(
        certs,
        lambda c: f"{c.program}/{'+'.join(c.tax_types)}",
        {
            "face_cents": lambda c: c.face_cents,
            "allowed_cents": lambda c: c.allowed_cents - later[c.id],
            "queued_cents": lambda c: c.queued_cents + later[c.id],
        },
    )
    pools: dict[str, dict[str, Any]] = {}
    for a in state.pool_allowed:
        if a.fiscal_year == fy:
            row = pools.setdefault(
                a.pool, {"pool": a.pool, "cap_cents": a.cap_cents, "used_cents": 0}
            )
            row["used_cents"] += a.allowed_cents
    deferred = [d for d in state.deferred if d.fiscal_year == fy]
    from_queue = [a for a in state.pool_allowed if a.from_queue and a.fiscal_year == fy]
    sold = approved_in(state, fy, DM_PROGRAMS)
    return {
        "fiscal_year": fy,
        "empty": not certs and not deferred and not sold and not pools,
        "by_program_and_tax": by_program,
        "pools": [pools[k] for k in sorted(pools)],
        "queue": {
            "deferred": len(deferred),
            "deferred_cents": sum(d.deferred_cents for d in deferred),
            "allowed_from_queue": len(from_queue),
            "allowed_from_queue_cents": sum(a.allowed_cents for a in from_queue),
        },
        "transfers": {
            "count": len(sold),
            "amount_cents": sum(t.amount_cents for t in sold),
            "consideration_cents": sum(t.consideration_cents for t in sold),
        },
        "prices": prices(sold),
    }


def _band(jobs: int) -> str:
    for label, low, high in JOB_BANDS:
        if jobs >= low and (high is None or jobs <= high):
            return label
    return "0"


def distribution(state: StatutoryLedger, fy: int) -> dict[str, Any]:
    granted = [c for c in state.certificates.values() if c.is_original and c.fiscal_year == fy]
    sold = [t for t in approved_in(state, fy, {t.program for t in state.transfers.values()})]
    used = [a for a in state.applied if a.tax_year == fy]

    def view(key_of_party: Any) -> dict[str, Any]:
        return {
            "granted": grouped(granted, lambda c: key_of_party(c.original_holder_party_id),
                               {"cents": lambda c: c.allowed_cents}),
            "sold": grouped(sold, lambda t: key_of_party(t.seller_party_id),
                            {"cents": lambda t: t.amount_cents}),
            "used": grouped(used, lambda a: key_of_party(a.party_id),
                            {"cents": lambda a: a.applied_cents}),
        }  # fmt: skip

    with_jobs = [c for c in granted if c.jobs]
    by_jobs = grouped(
        with_jobs,
        lambda c: _band(c.jobs or 0),
        {"cents": lambda c: c.allowed_cents, "jobs": lambda c: c.jobs or 0},
    )
    for row in by_jobs:
        row["mean_credit_per_job"] = exact_mean(row["cents"], row["jobs"])
    jobs = sum(c.jobs or 0 for c in with_jobs)
    return {
        "fiscal_year": fy,
        "empty": not granted and not sold and not used,
        "totals": {
            "granted_cents": sum(c.allowed_cents for c in granted),
            "sold_cents": sum(t.amount_cents for t in sold),
            "used_cents": sum(a.applied_cents for a in used),
        },
        "by_industry": view(lambda p: party_sector(state, p)),
        "by_size": view(lambda p: party_size(state, p, fy)),
        "by_jobs": by_jobs,
        "jobs": jobs,
        "mean_credit_per_job": exact_mean(sum(c.allowed_cents for c in with_jobs), jobs),
    }
