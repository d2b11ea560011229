"""Simultaneous commits of one TECH fiscal year: exactly one wins, the cap holds, and the
ledger verifies (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import date

from sqlalchemy import Engine, text

from market.domain.errors import DomainError
from market.domain.rulesets import A1178
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party
from market.services.tech import tech, tech_allocations
from market.services.trust import ledger

WORKERS = 6


def _application(engine: Engine, i: int, dollars: int) -> None:
    new = NewParty(
        name=f"Seller {i}",
        tax_id=f"33-{i:07d}",
        entity_type="c_corporation",
        tax_types=["CBT"],
        us_employees=30,
        nj_full_time_employees=15,
        formed_on="2005-01-01",
        in_innovation_zone=i % 3 == 0,
    )
    party_id = run(engine, lambda uow: register_party(uow, SYSTEM, new))["id"]
    application = tech.NewTechApplication(
        party_id=party_id,
        received_on=date(2013, 5, 1 + i),
        receipt_reason="Paper filing received by mail",
        nol_cents=0,
        allocation_factor="1",
        seller_tax_regime="CBT",
        rnd_credit_cents=dollars * 100,
    )
    run(engine, lambda uow: tech.submit_application(uow, SYSTEM, A1178, application))


def test_concurrent_commits_of_one_year_give_one_allocation(engine: Engine) -> None:
    for i in range(7):
        _application(engine, i, 12_000_000)  # 84M requested: oversubscribed
    barrier = threading.Barrier(WORKERS)
    outcomes: list[str] = []
    lock = threading.Lock()

    def commit() -> None:
        barrier.wait()
        try:
            run(engine, lambda uow: tech_allocations.commit_allocation(uow, SYSTEM, 2013, A1178))
            result = "ok"
        except DomainError as exc:
            result = exc.code
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=commit) for _ in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes) == ["conflict"] * (WORKERS - 1) + ["ok"]
    with engine.connect() as conn:
        runs = conn.execute(text("select count(*) from events where type = 'FY_ALLOCATION_RUN'"))
        assert runs.scalar() == 1
        used, cap = conn.execute(
            text("select used_cents, cap_cents from cap_usage where id = 'TECH:2013'")
        ).one()
        face = conn.execute(
            text("select sum(face_cents) from certificates where program = 'TECH'")
        ).scalar()
        zone_used = conn.execute(
            text("select used_cents from cap_usage where id = 'TECH_ZONE_SET_ASIDE:2013'")
        ).scalar()
    assert used == cap == 6_000_000_000
    assert face == used
    assert zone_used <= 1_000_000_000
    assert ledger.verify(engine).ok
