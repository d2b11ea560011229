"""TECH over the FakeUnitOfWork: an application accepted, clipped and refused (TB-5 lifetime
cap, TB-6 intake, the seller's tax regime, TB-1..TB-4 eligibility recorded), and the
fiscal year's one commit: the $60M cap shared pro rata above the floors with the zone
set-aside carved out first (TB-13..TB-15, RULES.md Appendix A)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from market.domain.errors import (
    ApplicationDeadlinePassedError,
    InvalidRequestError,
    LifetimeCapExceededError,
)
from market.services.kernel.errors import BadRequestError, ConflictError, RuleRefusedError
from market.services.tech.tech import NewTechApplication, list_applications, submit_application
from market.services.tech.tech_allocations import (
    cap_usage_ids,
    commit_allocation,
    preview_allocation,
)
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

MILLION = 100_000_000  # cents
AFTER_FY2013 = date(2013, 7, 1)


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def _apply(
    uow: FakeUnitOfWork, party_id: str, rnd_cents: int, on: str = "2013-03-15", **more: Any
) -> dict[str, Any]:
    """A paper filing the Authority records as received `on` (TB-6), its benefit an R&D
    credit of `rnd_cents`, committed."""
    new = NewTechApplication(
        party_id=party_id,
        received_on=on,
        nol_cents=0,
        allocation_factor="1",
        seller_tax_regime=more.pop("seller_tax_regime", "CBT"),
        rnd_credit_cents=rnd_cents,
        receipt_reason="paper filing",
        **more,
    )
    with uow:
        found = submit_application(uow, AUTHORITY_USER, RULES, new)
        uow.commit()
    return found


def _commit(uow: FakeUnitOfWork, fiscal_year: int = 2013) -> dict[str, Any]:
    today = date(fiscal_year, 7, 1)
    with uow:
        done = commit_allocation(uow, AUTHORITY_USER, fiscal_year, RULES, today)
        uow.commit()
    return done


def test_an_application_is_received_with_its_benefit_and_its_fiscal_year(
    uow: FakeUnitOfWork,
) -> None:
    firm = world.party(uow, "Firm")
    found = _apply(uow, firm, 2 * MILLION, requested_cents=3 * MILLION)
    assert (found["fiscal_year"], found["received_on"]) == (2013, "2013-03-15")
    assert found["eligible"] and found["reasons"] == []
    # The request is clipped at the benefit, the most it may be (TB-10).
    assert (found["benefit_cents"], found["requested_cents"]) == (2 * MILLION, 2 * MILLION)
    assert uow.types()[-2:] == ["TECH_APPLICATION_RECEIVED", "TECH_RECEIPT_RECORDED"]
    assert [a["id"] for a in list_applications(uow, participant(firm), None, None)] == [found["id"]]


def test_an_ineligible_seller_is_recorded_not_refused_and_left_out_of_the_plan(
    uow: FakeUnitOfWork,
) -> None:
    big = world.party(uow, "Big", us_employees=RULES.tech_us_employee_limit)
    found = _apply(uow, big, MILLION)
    assert not found["eligible"]
    assert found["reasons"][:2] == ["ineligible_seller", "too_many_us_employees"]
    preview = preview_allocation(uow, AUTHORITY_USER, 2013, RULES)
    assert preview["allocations"] == [] and preview["total_cents"] == 0


def test_only_a_cbt_or_git_seller_may_surrender(uow: FakeUnitOfWork) -> None:
    firm = world.party(uow, "Firm")
    with pytest.raises(InvalidRequestError, match="CBT or GIT"):
        _apply(uow, firm, MILLION, seller_tax_regime="PIT")
    assert uow.types() == ["PARTY_REGISTERED"]


def test_a_participant_may_not_backdate_a_receipt(uow: FakeUnitOfWork) -> None:
    firm = world.party(uow, "Firm")
    new = NewTechApplication(firm, "2013-03-15", 0, "1", "CBT", MILLION, receipt_reason="x")
    with uow, pytest.raises(BadRequestError, match="only the Authority"):
        submit_application(uow, participant(firm), RULES, new)


def test_the_lifetime_cap_clips_a_request_then_refuses_one_with_no_room(
    uow: FakeUnitOfWork,
) -> None:
    """TB-5: $15M a party over all years; FY 2013 allocates $12M, so FY 2014 may ask $3M."""
    firm = world.party(uow, "Firm")
    _apply(uow, firm, 12 * MILLION)
    _commit(uow)
    clipped = _apply(uow, firm, 5 * MILLION, on="2013-09-01")
    assert (clipped["fiscal_year"], clipped["requested_cents"]) == (2014, 3 * MILLION)
    _commit(uow, 2014)
    with pytest.raises(LifetimeCapExceededError) as refused:
        _apply(uow, firm, MILLION, on="2014-09-01")
    assert refused.value.details["remaining_cents"] == 0
    assert uow.tech_applications.lifetime_approved_cents(firm) == RULES.tech_lifetime_cap_cents


def test_the_60m_cap_is_shared_pro_rata_after_the_zone_set_aside(uow: FakeUnitOfWork) -> None:
    """Five $15M requests, one in an innovation zone: $75M for a $60M cap. The zone pool
    ($15M asked of a $10M set-aside) gives the zone applicant $10M; the other $50M goes
    floors first ($250,000 each), then the unmet $64M pro rata at 49/64: each outside
    the zone $250,000 + $14.75M x 49/64 = $11,542,968.75, the zone applicant
    $10M + $5M x 49/64 = $13,828,125."""
    parties = [world.party(uow, f"Firm {k}") for k in range(5)]
    apps = [
        _apply(uow, p, 15 * MILLION, in_innovation_zone=(k == 0)) for k, p in enumerate(parties)
    ]
    preview = preview_allocation(uow, AUTHORITY_USER, 2013, RULES)
    done = _commit(uow)
    got = {a["application_id"]: a["allocated_cents"] for a in done["allocations"]}
    assert got[apps[0]["id"]] == 1_382_812_500
    assert [got[a["id"]] for a in apps[1:]] == [1_154_296_875] * 4
    assert done["triggered"] and done["total_cents"] == RULES.tech_fy_cap_cents == 60 * MILLION
    assert preview["allocations"] == [a | {"certificate_id": None} for a in done["allocations"]]
    fy_id, zone_id = cap_usage_ids(2013)
    assert uow.caps.used_cents(fy_id) == 60 * MILLION
    # The set-aside is charged what the zone drew, at most its $10M.
    assert uow.caps.used_cents(zone_id) == RULES.tech_zone_setaside_cents == 10 * MILLION
    issued = [uow.certificates.get(a["certificate_id"]) for a in done["allocations"]]
    assert [(c["program"], c["face_cents"]) for c in issued if c] == [
        ("TECH", got[a["id"]]) for a in apps
    ]


def test_within_the_cap_every_request_is_paid_in_full(uow: FakeUnitOfWork) -> None:
    firms = [world.party(uow, f"Firm {k}") for k in range(2)]
    for k, firm in enumerate(firms):
        _apply(uow, firm, (k + 1) * MILLION, in_innovation_zone=True)
    done = _commit(uow)
    assert not done["triggered"]
    assert [a["allocated_cents"] for a in done["allocations"]] == [MILLION, 2 * MILLION]


def test_the_allocation_runs_once_after_the_intake_closes(uow: FakeUnitOfWork) -> None:
    firm = world.party(uow, "Firm")
    _apply(uow, firm, MILLION)
    with uow, pytest.raises(RuleRefusedError, match="TB-14") as early:
        commit_allocation(uow, AUTHORITY_USER, 2013, RULES, date(2013, 6, 30))
    assert (early.value.code, status_of(early.value)) == ("intake_still_open", 422)
    _commit(uow)
    with uow, pytest.raises(ConflictError, match="already been committed"):
        commit_allocation(uow, AUTHORITY_USER, 2013, RULES, AFTER_FY2013)
    # A late paper filing dated inside FY 2013 finds its intake closed.
    with pytest.raises(ApplicationDeadlinePassedError, match="already been committed"):
        _apply(uow, world.party(uow, "Late"), MILLION, on="2013-06-30")


def test_a_receipt_in_fiscal_year_2014_is_refused_for_2013_writing_nothing(
    uow: FakeUnitOfWork,
) -> None:
    """TB-6: an application belongs to the fiscal year of its receipt; FY 2013's intake
    closed on June 30, 2013."""
    firm = world.party(uow, "Firm")
    assert _apply(uow, firm, MILLION, on="2013-07-01")["fiscal_year"] == 2014
    before = list(uow.events)
    with pytest.raises(ApplicationDeadlinePassedError) as refused:
        _apply(uow, firm, MILLION, on="2013-07-01", fiscal_year=2013)
    assert status_of(refused.value) == 422
    assert uow.events == before


@pytest.mark.parametrize(
    ("received", "fiscal_year"),
    [("2013-07-01T03:30:00Z", 2013), ("2013-06-30", 2013), ("2013-07-01T00:00:00", 2014)],
)
def test_a_paper_filing_counts_by_its_new_york_date(
    uow: FakeUnitOfWork, received: str, fiscal_year: int
) -> None:
    # CMN-1: 03:30 UTC on July 1 is 23:30 on June 30 in New York; midnight there is FY 2014.
    found = _apply(uow, world.party(uow, "Firm"), MILLION, on=received)
    assert found["fiscal_year"] == fiscal_year


def test_new_york_midnight_is_past_fiscal_year_2013s_deadline(uow: FakeUnitOfWork) -> None:
    firm = world.party(uow, "Firm")
    with pytest.raises(ApplicationDeadlinePassedError) as refused:
        _apply(uow, firm, MILLION, on="2013-07-01T00:00:00", fiscal_year=2013)
    assert refused.value.details["deadline"] == "2013-06-30"


@pytest.mark.parametrize(
    ("facts", "application", "reason"),
    [
        ({"us_employees": 300}, {}, "too_many_us_employees"),
        ({}, {"parent_positive_noi": True}, "profitable_parent"),
        ({"operating_income_cents_by_year": {"2012": 1}}, {}, "positive_operating_income"),
    ],
)
def test_an_ineligible_seller_is_recorded_with_the_reason(
    uow: FakeUnitOfWork, facts: dict[str, Any], application: dict[str, Any], reason: str
) -> None:
    """TB-1..TB-4: recorded, not refused; the reasons start with `ineligible_seller`."""
    firm = world.party(uow, "Firm", **facts)
    found = _apply(uow, firm, MILLION, **application)
    assert not found["eligible"]
    assert found["reasons"][0] == "ineligible_seller"
    assert reason in found["reasons"]


def test_a_first_request_over_15m_is_clipped_to_the_lifetime_room(uow: FakeUnitOfWork) -> None:
    """TB-5: a $16M benefit asks $15M, all the room a party has."""
    found = _apply(uow, world.party(uow, "Firm"), 16 * MILLION)
    assert (found["benefit_cents"], found["requested_cents"]) == (16 * MILLION, 15 * MILLION)
