"""The TECH repositories' SQL reads and their in-memory versions answer the same for the
same events, on SQLite and PostgreSQL (as tests/integration/test_repositories.py): an FY
2013 intake committed, an FY 2014 one open, folded again into a FakeUnitOfWork."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Engine

from market.adapters.repositories import Repositories
from market.domain.rulesets import A1178
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, register_party
from market.services.tech.tech import NewTechApplication, submit_application
from market.services.tech.tech_allocations import commit_allocation, plan_allocation
from tests.unit.fakes import fake_from_ledger

RULES = A1178
BOSS = Actor("u_authority", AUTHORITY)
MILLION = 100_000_000


def _intake(engine: Engine) -> list[str]:
    """Three parties; FY 2013 committed ($14M and $9M); FY 2014 open, one seller ineligible."""
    with UnitOfWork(engine) as uow:
        parties = [
            register_party(
                uow,
                BOSS,
                NewParty(
                    f"Tech {k}",
                    f"TT-{k}",
                    "c_corporation",
                    ["CBT"],
                    us_employees=300 if k == 2 else 40,
                    nj_full_time_employees=20,
                    formed_on="2010-01-01",
                ),
            )["id"]
            for k in range(3)
        ]
        uow.commit()

    def apply(party: str, cents: int, on: str, zone: bool = False) -> None:
        new = NewTechApplication(
            party, on, 0, "1", "CBT", cents, in_innovation_zone=zone, receipt_reason="paper"
        )
        submit_application(uow, BOSS, RULES, new)

    with UnitOfWork(engine) as uow:
        apply(parties[0], 8 * MILLION, "2013-02-01", zone=True)
        apply(parties[1], 9 * MILLION, "2013-02-02T10:00:00")
        apply(parties[0], 6 * MILLION, "2013-02-03T11:00:00")
        uow.commit()
    with UnitOfWork(engine) as uow:
        commit_allocation(uow, BOSS, 2013, RULES, date(2013, 7, 1))
        uow.commit()
    with UnitOfWork(engine) as uow:
        for party in parties:
            apply(party, 5 * MILLION, "2013-10-01")
        uow.commit()
    return parties


def _answers(repos: Repositories, parties: list[str]) -> dict[str, Any]:
    apps = repos.tech_applications
    return {
        "applicants": apps.applicant_parties(),
        "lifetime": [apps.lifetime_approved_cents(p) for p in parties],
        "by_party": [apps.lifetime_approved_by_party(fy) for fy in (2013, 2014, 2015)],
        "plan_rows": [apps.plan_rows(fy) for fy in (2013, 2014)],
        "ordered": [r["id"] for r in apps.in_receipt_order(fiscal_year=2014, eligible=True)],
        "of_party": [r["id"] for r in apps.in_receipt_order(party_id=parties[0])],
        "committed": [repos.tech_allocations.of_year(fy) for fy in (2013, 2014)],
        "plan": plan_allocation(repos, 2014, RULES),
    }


def test_sql_and_memory_tech_repositories_agree(engine: Engine) -> None:
    parties = _intake(engine)
    fake = fake_from_ledger(engine)
    with UnitOfWork(engine) as uow:
        live = _answers(uow, parties)
    assert live == _answers(fake, parties)
    # The scenario reached what it means to compare: FY 2014's request of the first party
    # clipped to its $1M of lifetime room (TB-5), the ineligible seller left out.
    assert live["lifetime"] == [14 * MILLION, 9 * MILLION, 0]
    assert live["applicants"] == sorted(parties)
    assert [p.request_cents for p in live["plan"].items] == [MILLION, 5 * MILLION]
    assert set(live["by_party"][1]) == set(parties[:2]) and live["by_party"][2] == {}
    assert live["committed"][0] is not None and live["committed"][1] is None
    assert len(live["ordered"]) == 2 and len(live["plan_rows"][1]) == 3
    assert live["plan"].excluded and not live["plan"].triggered
