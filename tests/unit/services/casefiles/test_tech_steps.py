"""A TECH application's case file over the FakeUnitOfWork, where the ADM rules are in
force (2025): submission waits for the package, then the $1,000 fee, then a valid tax
clearance, in that order (ADM-1, ADM-5, ADM-12); forwarding to Taxation waits for the
preliminary exhibits (ADM-7); nothing moves once the fiscal year's applications lock at
12:00 am July 1 (ADM-6); in the bills' era (2014) the steps keep only their order. Each
refusal writes nothing."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any

import pytest

from market.adapters.document_store import DocumentStore
from market.domain.commands.casefiles import RecordClearance, RecordFeePayment
from market.domain.errors import DomainError
from market.services.casefiles import clearances, fees, tech_steps
from market.services.casefiles.documents import NewDocument, file_document
from market.services.tech.tech import NewTechApplication, submit_application
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.casefiles.test_media_types import PDF
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

SUBMISSION = [
    "business_description",
    "business_plan",
    "financial_statements_year_1",
    "financial_statements_year_2",
    "affiliates_list",
]
FORWARD = [
    "buying_business_information_sheet",
    "tax_benefit_identification_form",
    "private_financial_assistance_form",
    "executed_selling_agreement",
]


class MemoryDocuments(DocumentStore):
    """The exhibits' bytes in a dict rather than on disk."""

    def __init__(self) -> None:
        super().__init__("/nonexistent")
        self.files: dict[str, bytes] = {}

    def put(self, data: bytes) -> str:
        sha = hashlib.sha256(data).hexdigest()
        self.files[sha] = data
        return sha

    def get(self, sha256: str) -> bytes:
        return self.files[sha256]

    def has(self, sha256: str) -> bool:
        return sha256 in self.files


class Case:
    def __init__(self, uow: FakeUnitOfWork, received_on: str) -> None:
        self.uow = uow
        self.documents = MemoryDocuments()
        self.party = world.party(uow, "Case File Bio")
        self.seller = participant(self.party)
        new = NewTechApplication(
            party_id=self.party,
            received_on=received_on,
            nol_cents=0,
            allocation_factor="1",
            seller_tax_regime="CBT",
            rnd_credit_cents=5_000_000_00,
            in_innovation_zone=False,
            receipt_reason="paper filing",
        )
        self.id = str(self.run(lambda: submit_application(uow, AUTHORITY_USER, RULES, new))["id"])

    def run(self, step: Callable[[], Any]) -> Any:
        with self.uow:
            found = step()
            self.uow.commit()
        return found

    def file(self, *kinds: str) -> None:
        for kind in kinds:
            new = NewDocument(kind, "tech_application", self.id, f"{kind}.pdf", PDF)
            self.run(partial(file_document, self.uow, self.seller, self.documents, new))

    def pay_fee(self) -> None:
        [fee] = fees.list_fees(self.uow, AUTHORITY_USER, self.party)
        self.run(
            lambda: fees.record_payment(
                self.uow,
                AUTHORITY_USER,
                RecordFeePayment(fee["id"], 100_000, "check", "CHK 1", date(2025, 3, 3)),
            )
        )

    def clearance(self, issued_on: date) -> None:
        self.run(
            lambda: clearances.record_clearance(
                self.uow,
                AUTHORITY_USER,
                RULES,
                RecordClearance(self.party, "TCC-1", issued_on, "TECH"),
            )
        )

    def refused(self, step: Callable[[], Any]) -> DomainError:
        before = list(self.uow.events)
        with self.uow, pytest.raises(DomainError) as refused:
            step()
        assert status_of(refused.value) == 422
        assert self.uow.events == before
        return refused.value

    def submit(self) -> Any:
        return tech_steps.submit(self.uow, self.seller, self.id)


@pytest.fixture
def case(market_today: Any) -> Case:
    market_today("2025-03-03")
    return Case(FakeUnitOfWork(), "2025-03-03")


class TestSubmission:
    def test_it_waits_for_the_package_naming_what_is_missing(self, case: Case) -> None:
        refused = case.refused(case.submit)
        assert refused.code == "exhibit_missing"
        assert refused.details["kinds"] == SUBMISSION

    @pytest.mark.parametrize(
        ("done", "code"),
        [
            (["package"], "fees_unpaid"),
            (["package", "fee"], "tax_clearance_missing"),
            (["package", "fee", "old clearance"], "tax_clearance_expired"),
        ],
    )
    def test_then_the_fee_then_a_valid_clearance(
        self, case: Case, done: list[str], code: str
    ) -> None:
        steps: dict[str, Callable[[], None]] = {
            "package": lambda: case.file(*SUBMISSION),
            "fee": case.pay_fee,
            "old clearance": lambda: case.clearance(date(2024, 11, 1)),  # valid to 2025-01-29
        }
        for name in done:
            steps[name]()
        assert case.refused(case.submit).code == code

    def test_with_all_three_the_application_is_submitted(self, case: Case) -> None:
        case.file(*SUBMISSION)
        case.pay_fee()
        case.clearance(date(2025, 3, 1))
        case.run(case.submit)
        assert case.uow.types()[-1] == "TECH_APPLICATION_SUBMITTED"


class TestForwarding:
    def test_it_waits_for_the_preliminary_exhibits(self, case: Case) -> None:
        case.file(*SUBMISSION)
        case.pay_fee()
        case.clearance(date(2025, 3, 1))
        case.run(case.submit)
        case.run(lambda: tech_steps.preliminary_approval(case.uow, AUTHORITY_USER, case.id, []))
        forward = lambda: tech_steps.forward(case.uow, AUTHORITY_USER, case.id)  # noqa: E731
        refused = case.refused(forward)
        assert (refused.code, refused.details["kinds"]) == ("exhibit_missing", FORWARD)
        case.file(*FORWARD)
        case.run(forward)
        assert case.uow.types()[-1] == "TECH_FORWARDED_TO_TAXATION"


class TestTheJuly1Lock:
    @pytest.mark.parametrize("step", ["file an exhibit", "submit"])
    def test_nothing_moves_after_12_am_july_1(self, market_today: Any, step: str) -> None:
        market_today("2025-06-30")
        case = Case(FakeUnitOfWork(), "2025-06-30")
        market_today("2025-07-01")
        steps = {"file an exhibit": lambda: case.file("business_plan"), "submit": case.submit}
        assert case.refused(steps[step]).code == "application_locked"


class TestTheBillsEra:
    def test_no_fee_is_invoiced_and_the_steps_keep_only_their_order(
        self, market_today: Any
    ) -> None:
        market_today("2014-03-03")
        case = Case(FakeUnitOfWork(), "2014-03-03")
        assert fees.list_fees(case.uow, AUTHORITY_USER, case.party) == []
        case.run(case.submit)
        case.run(lambda: tech_steps.preliminary_approval(case.uow, AUTHORITY_USER, case.id, []))
        case.run(lambda: tech_steps.forward(case.uow, AUTHORITY_USER, case.id))
        assert case.uow.types()[-1] == "TECH_FORWARDED_TO_TAXATION"
