"""The simulator's one-query plan (services/tech/simulator_plan.py) is the preview's and the
commit's plan (`tech_allocations.plan_allocation`), row for row, on generated intakes: parties with
several applications and earlier allocations (TB-5 clipping), ineligible applications,
receipt-day and receipt-time ties (CMN-2), zones, requests above the benefit, and both
rounding and both apportioning modes, on small caps so that most intakes trigger it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, delete, insert

from market.adapters.db import make_engine
from market.adapters.tables import Party, TechApplication
from market.domain.rulesets import A1178, Ruleset
from market.services.tech import simulator_plan, tech_allocations

apps_t = TechApplication.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
PARTIES = [f"pty_{k}" for k in range(5)]
SMALL = replace(
    A1178,
    tech_fy_cap_cents=1_000_000,
    tech_zone_setaside_cents=200_000,
    tech_floor_cents=50_000,
    tech_lifetime_cap_cents=400_000,
)


@pytest.fixture(scope="module")
def engine(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    path = tmp_path_factory.mktemp("simulator") / "market.db"
    shutil.copy(sqlite_template, path)
    eng = make_engine(f"sqlite:///{path}")
    with eng.begin() as conn:
        conn.execute(
            insert(parties_t),
            [
                {
                    "id": p,
                    "name": p,
                    "tax_id": p,
                    "entity_type": "c_corporation",
                    "tax_types": ["CBT"],
                    "operating_income_cents_by_year": {},
                    "created_seq": k + 1,
                }
                for k, p in enumerate(PARTIES)
            ],
        )
    yield eng
    eng.dispose()


application = st.tuples(
    st.sampled_from(PARTIES),
    st.sampled_from([2012, 2013, 2013, 2013]),  # 2012: an earlier fiscal year
    st.integers(1, 4),  # the receipt day: ties on a day are common
    st.booleans(),  # in an innovation zone
    st.integers(0, 300_000),  # requested
    st.integers(1, 300_000),  # the benefit, the most it may be
    st.sampled_from([True, True, True, False]),  # eligible
    st.one_of(st.none(), st.integers(0, 500_000)),  # allocated (the earlier year's)
    st.one_of(st.none(), st.integers(8, 10)),  # the receipt hour (None: before 0010)
)


def _rows(plan: tech_allocations.Plan, cap: int) -> list[dict[str, Any]]:
    """The simulator's rows as it built them from `tech_allocations.plan_allocation` before."""
    rows = []
    for p in plan.items:
        app = p.application
        used = plan.lifetime_approved.get(app.party_id, 0)
        headroom = max(0, cap - used)
        rows.append(
            {
                "application_id": app.id,
                "party_id": app.party_id,
                "received_on": app.received_on,
                "in_innovation_zone": app.in_innovation_zone,
                "requested_cents": app.requested_cents,
                "request_cents": p.request_cents,
                "allocated_cents": p.allocated_cents,
                "certificate_id": None,
                "lifetime_approved_cents": used,
                "lifetime_headroom_cents": headroom,
                "headroom_after_cents": max(0, headroom - p.allocated_cents),
            }
        )
    return rows


def _load(engine: Engine, apps: list[tuple[Any, ...]], order: list[int]) -> None:
    with engine.begin() as conn:
        conn.execute(delete(apps_t))
        if not apps:
            return
        conn.execute(
            insert(apps_t),
            [
                {
                    "id": f"tapp_{k}",
                    "party_id": party,
                    "fiscal_year": fy,
                    "received_on": f"{fy}-04-{day:02d}",
                    "received_at": None
                    if hour is None
                    else f"{fy}-04-{day:02d}T{hour:02d}:00:00-04:00",
                    "received_seq": 100 + seq,
                    "nol_cents": 0,
                    "allocation_factor": "1",
                    "seller_tax_regime": "CBT",
                    "rnd_credit_cents": benefit,
                    "in_innovation_zone": zone,
                    "benefit_cents": benefit,
                    "requested_cents": requested,
                    "eligible": eligible,
                    "reasons": [],
                    "facts": {},
                    "allocated_cents": allocated if fy == 2012 else None,
                    "ruleset": "A1178",
                }
                for k, (
                    (party, fy, day, zone, requested, benefit, eligible, allocated, hour),
                    seq,
                ) in (enumerate(zip(apps, order, strict=True)))
            ],
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    apps=st.lists(application, max_size=30),
    shuffle=st.randoms(use_true_random=False),
    rounding=st.sampled_from(["floor_cent_largest_remainder", "floor_cent"]),
    apportion=st.sampled_from(["preserve_zone", "scale_all"]),
)
def test_the_simulators_plan_is_the_commits_plan(
    engine: Engine, apps: list[tuple[Any, ...]], shuffle: Any, rounding: str, apportion: str
) -> None:
    order = list(range(len(apps)))
    shuffle.shuffle(order)  # receipt order is not the order of the ids
    _load(engine, apps, order)
    ruleset: Ruleset = replace(SMALL, rounding_mode=rounding, allocation_apportion_mode=apportion)
    with engine.connect() as conn:
        expected = tech_allocations.plan_allocation(conn, 2013, ruleset)
        got = simulator_plan.plan(conn, 2013, ruleset)
    assert got.rows == _rows(expected, ruleset.tech_lifetime_cap_cents)
    assert (got.triggered, got.total_cents) == (expected.triggered, expected.total_cents)
    assert got.lifetime_approved == expected.lifetime_approved
    if expected.triggered:
        assert got.total_cents <= ruleset.tech_fy_cap_cents


def test_generated_intakes_do_trigger_the_allocation(engine: Engine) -> None:
    """The property above is not vacuous: an intake like its larger ones is oversubscribed."""
    apps = [
        (PARTIES[k % 5], 2013, 1 + k % 4, k % 3 == 0, 250_000, 300_000, True, None, None)
        for k in range(8)
    ]
    _load(engine, apps, list(range(8)))
    with engine.connect() as conn:
        got = simulator_plan.plan(conn, 2013, SMALL)
    assert got.triggered and got.total_cents == SMALL.tech_fy_cap_cents


# AMB-31's worked case: three applications of 100 cents on one day for a cap of 200, no
# floor and no set-aside: each is owed 66 2/3 cents, so two get 67 and one 66. The
# remainders are equal, so the cents go by the receipt instant, then the application id.
TIES = replace(
    A1178,
    tech_fy_cap_cents=200,
    tech_zone_setaside_cents=0,
    tech_floor_cents=0,
    tech_lifetime_cap_cents=1_000,
)


def _tied(engine: Engine, received: list[tuple[str, str | None]]) -> dict[str, int]:
    """Each application's cents, from the plan and the simulator (which must agree)."""
    with engine.begin() as conn:
        conn.execute(delete(apps_t))
        conn.execute(
            insert(apps_t),
            [
                {
                    "id": app_id,
                    "party_id": PARTIES[k],
                    "fiscal_year": 2013,
                    "received_on": "2013-03-01",
                    "received_at": at,
                    "received_seq": 100 + k,  # stamped in the order given
                    "nol_cents": 0,
                    "allocation_factor": "1",
                    "seller_tax_regime": "CBT",
                    "rnd_credit_cents": 100,
                    "in_innovation_zone": False,
                    "benefit_cents": 100,
                    "requested_cents": 100,
                    "eligible": True,
                    "reasons": [],
                    "facts": {},
                    "ruleset": "A1178",
                }
                for k, (app_id, at) in enumerate(received)
            ],
        )
    with engine.connect() as conn:
        plan = tech_allocations.plan_allocation(conn, 2013, TIES)
        fresh = simulator_plan.plan(conn, 2013, TIES)
    cents = {p.application.id: p.allocated_cents for p in plan.items}
    assert {r["application_id"]: r["allocated_cents"] for r in fresh.rows} == cents
    assert plan.triggered and plan.total_cents == 200
    return cents


def test_a_same_day_tie_goes_to_the_earlier_receipt_time(engine: Engine) -> None:
    """A paper filing recorded last (TB-6) but received at 09:00 beats the 15:00 and the
    12:00 receipts of that day, though it was stamped after them."""
    got = _tied(
        engine,
        [
            ("tapp_a", "2013-03-01T15:00:00-05:00"),
            ("tapp_b", "2013-03-01T12:00:00-05:00"),
            ("tapp_c", "2013-03-01T09:00:00-05:00"),
        ],
    )
    assert got == {"tapp_a": 66, "tapp_b": 67, "tapp_c": 67}


def test_the_same_receipt_instant_ties_by_application_id(engine: Engine) -> None:
    """One instant (written in two offsets) for all three: the lower ids get the cents,
    whatever the stamp order."""
    got = _tied(
        engine,
        [
            ("tapp_c", "2013-03-01T09:00:00-05:00"),
            ("tapp_a", "2013-03-01T14:00:00+00:00"),
            ("tapp_b", "2013-03-01T09:00:00-05:00"),
        ],
    )
    assert got == {"tapp_a": 67, "tapp_b": 67, "tapp_c": 66}


def test_a_row_without_its_instant_counts_from_the_start_of_its_day(engine: Engine) -> None:
    """Before migration 0010 a row has its day alone: New York midnight, so it precedes
    that day's stamped receipts."""
    got = _tied(
        engine,
        [
            ("tapp_a", "2013-03-01T08:00:00-05:00"),
            ("tapp_b", "2013-03-01T07:00:00-05:00"),
            ("tapp_c", None),
        ],
    )
    assert got == {"tapp_a": 66, "tapp_b": 67, "tapp_c": 67}
