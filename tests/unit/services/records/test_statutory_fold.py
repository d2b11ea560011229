"""The statutory reports over the FakeUnitOfWork's events (PRODUCT.md 9.2): the TECH
program report of a fiscal year whose $60M cap was shared among five $15M requests (one
in an innovation zone) with one ineligible applicant; and a party's facts recorded
through the use case, refused when no sector (nothing appended)."""

from __future__ import annotations

from typing import Any

import pytest

from market.domain.commands.records import RecordPartyFacts
from market.domain.events import upcast
from market.domain.rules.records import RecordValueError
from market.domain.rules.statutory_ledger import fold
from market.domain.rules.statutory_reports import distribution, tech_program
from market.services.records.party_facts import facts_of, record_party_facts
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.tech.test_tech import MILLION, _apply, _commit
from tests.unit.services.world import AUTHORITY_USER, RULES


def _folded(uow: FakeUnitOfWork) -> Any:
    return fold((e.seq, upcast(e.type, e.payload)) for e in uow.events)


def test_the_tech_report_counts_demand_the_cap_and_the_sellers_near_the_lifetime_cap() -> None:
    uow = FakeUnitOfWork()
    firms = [world.party(uow, f"Firm {k}") for k in range(5)]
    for k, firm in enumerate(firms):
        _apply(uow, firm, 15 * MILLION, in_innovation_zone=(k == 0))
    big = world.party(uow, "Big", us_employees=RULES.tech_us_employee_limit)
    _apply(uow, big, MILLION)
    _commit(uow)
    report = tech_program(_folded(uow), 2013, RULES)
    demand = report["demand"]
    assert (demand["applications"], demand["applicants"], demand["eligible"]) == (6, 6, 5)
    reasons = {r["reason"]: r["count"] for r in demand["ineligible_reasons"]}
    assert reasons["ineligible_seller"] == 1 and reasons["too_many_us_employees"] == 1
    assert demand["requested_cents"] == 75 * MILLION
    assert demand["allocated_cents"] == 60 * MILLION
    # The zone applicant's $13,828,125 (see test_tech); the others' $11,542,968.75 each.
    assert demand["zone"]["allocated_cents"] == 1_382_812_500
    assert demand["other"]["allocated_cents"] == 4 * 1_154_296_875
    assert report["cap"]["remaining_cents"] == 0
    assert report["total_approved_cents"] == 60 * MILLION
    # At 80% of the $15M lifetime cap ($12M) only the zone applicant is near it.
    [near] = report["lifetime_cap"]["sellers_near_cap"]
    assert near["party_id"] == firms[0]
    assert near["headroom_cents"] == 15 * MILLION - 1_382_812_500
    assert report["empty"] is False and report["year_before"]["applications"] == 0
    assert tech_program(_folded(uow), 2012, RULES)["empty"] is True


def test_granted_credit_by_size_uses_the_years_employees() -> None:
    uow = FakeUnitOfWork()
    firm = world.party(uow, "Firm")
    with uow:
        record_party_facts(
            uow, AUTHORITY_USER, RecordPartyFacts(firm, "541715", {"2012": 8, "2013": 140})
        )
        uow.commit()
    _apply(uow, firm, 2 * MILLION)
    _commit(uow)
    report = distribution(_folded(uow), 2013)
    assert report["by_size"]["granted"] == [{"key": "100-499", "count": 1, "cents": 2 * MILLION}]
    assert report["by_industry"]["granted"] == [{"key": "54", "count": 1, "cents": 2 * MILLION}]


def test_party_facts_keep_what_a_change_leaves_out_and_refuse_no_sector() -> None:
    uow = FakeUnitOfWork()
    firm = world.party(uow, "Firm")
    with uow:
        record_party_facts(uow, AUTHORITY_USER, RecordPartyFacts(firm, "3254", {"2025": 12}))
        record_party_facts(uow, AUTHORITY_USER, RecordPartyFacts(firm, None, {"2025": 14}))
        uow.commit()
    assert facts_of(uow, firm) == {"naics_code": "3254", "employees": {"2025": 14}}
    count = len(uow.events)
    with uow, pytest.raises(RecordValueError) as refused:
        record_party_facts(uow, AUTHORITY_USER, RecordPartyFacts(firm, "99", None))
    assert refused.value.code == "invalid_naics"
    assert len(uow.events) == count
