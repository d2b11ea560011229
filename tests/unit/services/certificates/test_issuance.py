"""Issuing certificates over the FakeUnitOfWork: the BRRAG fiscal-year cap (BR-12), UTH
installments charged to the fiscal year their period commences in (UTH-12, UTH-13), the
digital media pool and its FIFO queue (DMQ-1..3, RULES.md 5.5) and numbering."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from market.domain.errors import CapExceededError, DomainError, TaxTypeNotAllowedError
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.certificates.dm_pools import roll_fiscal_year
from market.services.kernel.errors import ForbiddenError
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

MILLION = 100_000_000  # cents


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def _issue(uow: FakeUnitOfWork, new: NewCertificate) -> dict[str, Any]:
    with uow:
        cert = issue_certificate(uow, AUTHORITY_USER, new, RULES)
        uow.commit()
    return cert


def _brrag(holder: str, face: int) -> NewCertificate:
    return NewCertificate(
        "BRRAG",
        holder,
        face,
        2014,
        retained_jobs=-(-face // 150_000),
        nj_operations_since=date(2000, 1, 1),
        cannot_use_before_expiry=True,
    )


def _award(holder: str) -> NewCertificate:
    """$450,000 for 100 retained jobs over 3 years, in New Jersey for 10 years (BR-1)."""
    return NewCertificate(
        "BRRAG",
        holder,
        450_000_00,
        2014,
        retained_jobs=100,
        award_years=3,
        nj_operations_since=date(2004, 9, 1),
        cannot_use_before_expiry=True,
    )


class TestBrrag:
    def test_an_award_is_issued_numbered_and_charged_to_its_fiscal_year(
        self, uow: FakeUnitOfWork
    ) -> None:
        holder = world.party(uow, "Holder")
        first = _issue(uow, _brrag(holder, 5 * MILLION))
        second = _issue(uow, _brrag(holder, 5 * MILLION))
        assert (first["number"], second["number"]) == ("BRRAG-2014-000001", "BRRAG-2014-000002")
        assert first["status"] == "issued" and first["balance_cents"] == 5 * MILLION
        assert first["lineage"] == {"ancestors": [], "children": [], "children_next": None}
        assert uow.caps.used_cents("BRRAG:2014") == 10 * MILLION
        assert uow.types()[-2:] == ["CERT_ISSUED", "CAP_CHARGED"]

    def test_an_award_over_the_20_million_cap_is_refused_writing_nothing(
        self, uow: FakeUnitOfWork
    ) -> None:
        holder = world.party(uow, "Holder")
        _issue(uow, _brrag(holder, 15 * MILLION))
        before = len(uow.events)
        with uow, pytest.raises(CapExceededError) as refused:
            issue_certificate(uow, AUTHORITY_USER, _brrag(holder, 5 * MILLION + 1), RULES)
        assert refused.value.details["remaining_cents"] == 5 * MILLION
        assert len(uow.events) == before
        assert _issue(uow, _brrag(holder, 5 * MILLION))["face_cents"] == 5 * MILLION

    def test_the_award_is_recorded_on_the_certificate(self, uow: FakeUnitOfWork) -> None:
        cert = _issue(uow, _award(world.party(uow, "Meadowlands Logistics")))
        assert cert["attributes"]["brrag_award"] == {
            "retained_jobs": 100,
            "award_years": 3,
            "yearly_credit_cents": 150_000_00,
            "award_cents": 450_000_00,
            "nj_operations_since": "2004-09-01",
            "operation_years": 10,
            "cannot_use_before_expiry": True,
        }

    @pytest.mark.parametrize(
        ("change", "code", "rule"),
        [
            ({"retained_jobs": 99}, "award_exceeded", "BR-6"),  # $1,500 a job a year
            ({"nj_operations_since": date(2004, 9, 2)}, "ineligible_seller", "BR-1"),
            ({"cannot_use_before_expiry": False}, "determination_missing", "BR-2"),
        ],
    )
    def test_what_the_award_does_not_support_is_refused_writing_nothing(
        self, uow: FakeUnitOfWork, change: dict[str, Any], code: str, rule: str
    ) -> None:
        holder = world.party(uow, "Meadowlands Logistics")
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            issue_certificate(uow, AUTHORITY_USER, replace(_award(holder), **change), RULES)
        assert (refused.value.code, status_of(refused.value)) == (code, 422)
        assert rule in refused.value.message
        assert uow.events == before

    def test_only_the_authority_issues(self, uow: FakeUnitOfWork) -> None:
        holder = world.party(uow, "Holder")
        with uow, pytest.raises(ForbiddenError):
            issue_certificate(uow, participant(holder), _brrag(holder, MILLION), RULES)


class TestUth:
    def test_each_tenth_is_charged_to_the_fiscal_year_its_period_commences_in(
        self, uow: FakeUnitOfWork
    ) -> None:
        holder = world.party(uow, "Holder", tax_types=["IPT"])
        cert = _issue(uow, NewCertificate("UTH", holder, 10 * MILLION, 2014, tax_periods=[2014]))
        periods = cert["tax_periods"]
        assert [(p["period"], p["fiscal_year"], p["cents"]) for p in periods[:2]] == [
            (2014, 2014, MILLION),
            (2015, 2015, MILLION),
        ]
        assert len(periods) == 10
        assert uow.caps.used_cents("UTH:2014") == MILLION
        assert uow.caps.used_cents("UTH_CUMULATIVE:0") == 10 * MILLION

    def test_a_july_filers_first_period_counts_in_the_next_fiscal_year(
        self, uow: FakeUnitOfWork
    ) -> None:
        holder = world.party(uow, "Holder", tax_types=["IPT"])
        new = NewCertificate(
            "UTH", holder, 10 * MILLION, 2014, tax_periods=[2014], tax_period_start_month=7
        )
        cert = _issue(uow, new)
        assert cert["tax_periods"][0]["fiscal_year"] == 2015
        assert uow.caps.used_cents("UTH:2015") == MILLION

    @pytest.mark.parametrize(
        ("fiscal_year", "periods", "cap"),
        [
            # $148M of a $1.48B award in FY 2014: over the $150M cap with $2.4M there.
            (2014, [2014], "UTH"),
            # The same award starting in 2029 fits every FY but not the $1.5B in all.
            (2030, None, "UTH_CUMULATIVE"),
        ],
    )
    def test_an_award_over_a_uth_cap_is_refused_writing_nothing(
        self, uow: FakeUnitOfWork, fiscal_year: int, periods: list[int] | None, cap: str
    ) -> None:
        holder = world.party(uow, "Holder")
        _issue(uow, NewCertificate("UTH", holder, 24 * MILLION, 2014, tax_periods=[2014]))
        before = list(uow.events)
        new = NewCertificate("UTH", holder, 1_480 * MILLION, fiscal_year, tax_periods=periods)
        with uow, pytest.raises(CapExceededError) as refused:
            issue_certificate(uow, AUTHORITY_USER, new, RULES)
        assert refused.value.details["cap"] == cap
        assert uow.events == before


class TestTaxTypes:
    def test_a_digital_media_git_credit_cannot_be_issued_for_ipt(self, uow: FakeUnitOfWork) -> None:
        holder = world.party(uow, "Holder")
        new = NewCertificate("DM_GIT", holder, MILLION, 2014, tax_types=["IPT"])
        with uow, pytest.raises(TaxTypeNotAllowedError):
            issue_certificate(uow, AUTHORITY_USER, new, RULES)


class TestDigitalMediaQueue:
    def test_the_worked_example_defers_in_order_and_allows_on_july_1(
        self, uow: FakeUnitOfWork
    ) -> None:
        # RULES.md 5.5: a $5M DM-CBT pool; #1 $2.0M, #2 $2.5M, #3 $1.2M, #4 $0.3M.
        holder = world.party(uow, "Studio")
        faces = (200, 250, 120, 30)  # in $10,000s
        certs = [
            _issue(
                uow, NewCertificate("DM_CBT", holder, f * MILLION // 100, 2014, credit_year=2013)
            )
            for f in faces
        ]
        assert [c["status"] for c in certs] == ["issued", "issued", "partially_queued", "queued"]
        assert (certs[2]["allowed_cents"], certs[2]["queued_cents"]) == (
            MILLION // 2,
            70 * MILLION // 100,
        )
        assert [r.id for r in uow.queue.waiting("DM_CBT")] == [certs[2]["id"], certs[3]["id"]]
        with uow:
            rolled = roll_fiscal_year(uow, AUTHORITY_USER, 2015, RULES, date(2014, 7, 1))
            uow.commit()
        assert [(a["certificate_id"], a["allowed_cents"]) for a in rolled["allowed"]] == [
            (certs[2]["id"], 70 * MILLION // 100),
            (certs[3]["id"], 30 * MILLION // 100),
        ]
        assert uow.caps.used_cents("DM_CBT:2015") == MILLION
        assert not uow.queue.waiting("DM_CBT")
