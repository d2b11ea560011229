"""The live TECH cap meter and allocation simulator (PRODUCT.md 8.3; TB-5, TB-11..TB-15).

Before the June 30 deadline, what the applications received so far would get if intake
closed now: the domain's rules the preview and commit plan with (`tech_caps` for each
T_i, `tech_allocation` for the method), read in one joined query (`simulator_plan`) and
tested equal to `tech_allocations.plan_allocation`. Once the fiscal year is committed it
answers with the committed allocation, so the two cannot differ.

The Authority and auditors see every row and the meter (requests against the $60M cap and
the $10M innovation-zone set-aside); a participant sees only its own party's rows and its
lifetime headroom (the $15M TB-5 cap minus what it has been allocated), not the others'
requests or the totals.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date
from typing import Any, TypedDict

from market.adapters.reads import tech as tech_rows
from market.domain.events.tech import FyAllocationRun
from market.domain.rules import tech_caps
from market.domain.rulesets import Ruleset
from market.services.kernel import clock
from market.services.kernel.actor import AUDITOR, AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.reads import Connection
from market.services.tech import simulator_plan, tech
from market.services.tech.simulator_plan import SimulatedLine


class Meter(TypedDict):
    """The cap meter: requests against the FY cap and the innovation-zone set-aside."""

    applications: int
    requested_cents: int
    zone_requested_cents: int
    zone_allocated_cents: int
    oversubscribed_by_cents: int
    cap_remaining_cents: int


class SimulationHeader(TypedDict):
    fiscal_year: int
    committed: bool
    as_of: str
    deadline: str
    intake_open: bool
    triggered: bool
    cap_cents: int
    zone_setaside_cents: int
    floor_cents: int
    lifetime_cap_cents: int


class PartySimulation(SimulationHeader):
    """A participant's answer: its own lines and lifetime room only."""

    allocations: list[SimulatedLine]
    party_id: str | None
    lifetime_approved_cents: int
    lifetime_headroom_cents: int


class FullSimulation(SimulationHeader):
    """The Authority's and auditors' answer: every line, the total and the meter."""

    total_cents: int
    meter: Meter
    allocations: list[SimulatedLine]


def _committed_rows(
    conn: Connection, fiscal_year: int, approved: dict[str, int], cap: int
) -> tuple[list[SimulatedLine], bool, int]:
    """The committed allocation as FY_ALLOCATION_RUN recorded it (with each T_i), joined to
    the applications for their receipt date and zone; after the commit, the allocation is
    part of each party's lifetime allocations (`approved`)."""
    stored = tech_rows.committed_run_payload(conn, fiscal_year, FyAllocationRun.TYPE)
    run = FyAllocationRun.read(stored)
    apps = tech_rows.applications_by_id(conn, fiscal_year)
    rows: list[SimulatedLine] = []
    for a in run.allocations:
        app = apps[a["application_id"]]
        used = approved.get(a["party_id"], 0)
        headroom = max(0, cap - used)
        rows.append(
            {
                "application_id": a["application_id"],
                "party_id": a["party_id"],
                "received_on": app.received_on,
                "in_innovation_zone": bool(app.in_innovation_zone),
                "requested_cents": int(app.requested_cents),
                "request_cents": a["request_cents"],
                "allocated_cents": a["allocated_cents"],
                "certificate_id": a["certificate_id"],
                "lifetime_approved_cents": used,
                "lifetime_headroom_cents": headroom,
                "headroom_after_cents": headroom,
            }
        )
    return rows, run.triggered, run.total_cents


def _meter(rows: list[SimulatedLine], ruleset: Ruleset) -> Meter:
    requested = sum(r["request_cents"] for r in rows)
    zone_requested = sum(r["request_cents"] for r in rows if r["in_innovation_zone"])
    zone_allocated = sum(r["allocated_cents"] for r in rows if r["in_innovation_zone"])
    return {
        "applications": len(rows),
        "requested_cents": requested,
        "zone_requested_cents": zone_requested,
        "zone_allocated_cents": zone_allocated,
        "oversubscribed_by_cents": max(0, requested - ruleset.tech_fy_cap_cents),
        "cap_remaining_cents": max(0, ruleset.tech_fy_cap_cents - requested),
    }


@dataclass(frozen=True)
class _Simulation:
    header: SimulationHeader
    rows: list[SimulatedLine]
    approved: dict[str, int]
    total_cents: int
    meter: Meter


_CACHE: OrderedDict[tuple[Any, ...], _Simulation] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 8


def clear_cache() -> None:
    """Forget every computed simulation (the benchmark's cold runs)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def _head_hash(conn: Connection) -> str:
    return tech_rows.head_hash(conn)


def _compute(conn: Connection, fiscal_year: int, ruleset: Ruleset, today: date) -> _Simulation:
    committed = tech_rows.is_committed(conn, fiscal_year)
    cap = ruleset.tech_lifetime_cap_cents
    if committed:
        approved = tech.lifetime_approved_by_party(conn, fiscal_year)
        rows, triggered, total = _committed_rows(conn, fiscal_year, approved, cap)
    else:
        plan = simulator_plan.plan(conn, fiscal_year, ruleset)
        rows, triggered, total = plan.rows, plan.triggered, plan.total_cents
        approved = plan.lifetime_approved
    deadline = tech_caps.deadline(fiscal_year, ruleset)
    header: SimulationHeader = {
        "fiscal_year": fiscal_year,
        "committed": committed,
        "as_of": today.isoformat(),
        "deadline": deadline.isoformat(),
        "intake_open": not committed and today <= deadline,
        "triggered": triggered,
        "cap_cents": ruleset.tech_fy_cap_cents,
        "zone_setaside_cents": ruleset.tech_zone_setaside_cents,
        "floor_cents": ruleset.tech_floor_cents,
        "lifetime_cap_cents": ruleset.tech_lifetime_cap_cents,
    }
    return _Simulation(header, rows, approved, total, _meter(rows, ruleset))


def _simulation(conn: Connection, fiscal_year: int, ruleset: Ruleset) -> _Simulation:
    """Computed once per ledger state: the key holds the ledger head's hash (which names
    every event before it), so any new event, on any database, is a new key. The plan is
    a function of the projections, which are a function of the events."""
    today = clock.today()
    key = (_head_hash(conn), fiscal_year, ruleset, today)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    computed = _compute(conn, fiscal_year, ruleset, today)
    with _CACHE_LOCK:
        _CACHE[key] = computed
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return computed


def simulate(
    conn: Connection, actor: Actor, fiscal_year: int, ruleset: Ruleset
) -> PartySimulation | FullSimulation:
    actor.require(AUTHORITY, AUDITOR, PARTICIPANT)
    sim = _simulation(conn, fiscal_year, ruleset)
    if actor.role == PARTICIPANT:
        used = sim.approved.get(str(actor.party_id), 0)
        return PartySimulation(
            **sim.header,
            allocations=[r for r in sim.rows if r["party_id"] == actor.party_id],
            party_id=actor.party_id,
            lifetime_approved_cents=used,
            lifetime_headroom_cents=tech_caps.lifetime_room_cents(used, ruleset),
        )
    return FullSimulation(
        **sim.header, total_cents=sim.total_cents, meter=sim.meter, allocations=sim.rows
    )
