"""A transfer's final approval at closing over the FakeUnitOfWork, where the ADM rules are
in force (ADM-8, ADM-9, ADM-12): the executed selling agreement, then the seller's valid
tax clearance; for BRRAG, the Board's approval in effect covering the sale. Each refusal
writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from market.domain.commands.casefiles import (
    RecordBoardAction,
    RecordClearance,
    RecordGovernorDecision,
)
from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.domain.programs import Program
from market.services.casefiles import board_actions, clearances
from market.services.casefiles.documents import NewDocument, file_document
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.casefiles.test_media_types import PDF
from tests.unit.services.casefiles.test_tech_steps import MemoryDocuments
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

FACTS: dict[str, Any] = {
    "us_employees": 40,
    "nj_full_time_employees": 12,
    "formed_on": "2006-03-01",
    "operating_income_cents_by_year": {"2023": -500_000, "2024": -100_000},
}


def _run(uow: FakeUnitOfWork, step: Callable[[], Any]) -> Any:
    with uow:
        found = step()
        uow.commit()
    return found


class Closing:
    """A seller's sale of `amount` of its `program` certificate, confirmed by the buyer."""

    def __init__(self, uow: FakeUnitOfWork, program: Program, amount: int) -> None:
        self.uow = uow
        self.seller = world.party(uow, "Selling Bio", **FACTS)
        self.buyer = world.party(uow, "Buying Corp", tax_types=["CBT"])
        self.cert = world.certificate(uow, self.seller, program, 10 * amount, fiscal_year=2025)
        self.program = program
        self.transfer = self.sale(amount)

    def sale(self, amount: int) -> str:
        command = CreateTransfer(self.cert, self.buyer, amount, amount * 9 // 10, None)

        def propose_and_confirm() -> str:
            t = create_transfer(self.uow, participant(self.seller), command, RULES)
            confirm_transfer(self.uow, participant(self.buyer), t["id"], RULES)
            return str(t["id"])

        return str(_run(self.uow, propose_and_confirm))

    def file_agreement(self, transfer: str | None = None) -> None:
        new = NewDocument(
            "executed_selling_agreement", "transfer", transfer or self.transfer, "a.pdf", PDF
        )
        _run(
            self.uow,
            lambda: file_document(self.uow, participant(self.seller), MemoryDocuments(), new),
        )

    def clearance(self, issued_on: date) -> None:
        _run(
            self.uow,
            lambda: clearances.record_clearance(
                self.uow,
                AUTHORITY_USER,
                RULES,
                RecordClearance(self.seller, "TCC-7", issued_on, self.program),
            ),
        )

    def approve(self, transfer: str | None = None) -> dict[str, Any]:
        return approve_transfer(self.uow, AUTHORITY_USER, transfer or self.transfer, RULES)

    def refused(self, transfer: str | None = None) -> DomainError:
        before = list(self.uow.events)
        with self.uow, pytest.raises(DomainError) as refused:
            self.approve(transfer)
        assert status_of(refused.value) == 422
        assert self.uow.events == before
        return refused.value


@pytest.fixture
def tech(market_today: Any) -> Closing:
    market_today("2025-03-03")
    return Closing(FakeUnitOfWork(), Program.TECH, 500_000)


class TestTechClosing:
    def test_it_waits_for_the_executed_selling_agreement(self, tech: Closing) -> None:
        refused = tech.refused()
        assert (refused.code, refused.details["kinds"]) == (
            "exhibit_missing",
            ["executed_selling_agreement"],
        )

    @pytest.mark.parametrize(
        ("issued_on", "code"),
        [(None, "tax_clearance_missing"), (date(2024, 10, 1), "tax_clearance_expired")],
    )
    def test_then_for_a_valid_tax_clearance(
        self, tech: Closing, issued_on: date | None, code: str
    ) -> None:
        tech.file_agreement()
        if issued_on is not None:
            tech.clearance(issued_on)
        assert tech.refused().code == code

    def test_with_both_the_sale_closes(self, tech: Closing) -> None:
        tech.file_agreement()
        tech.clearance(date(2025, 2, 1))
        assert _run(tech.uow, tech.approve)["status"] == "approved"


class TestBrragClosing:
    def test_a_board_approval_smaller_than_the_sale_refuses_it(self, market_today: Any) -> None:
        """ADM-9: a $5,000 approval in effect does not cover a $6,000 sale; it covers $5,000."""
        market_today("2024-11-20")
        closing = Closing(FakeUnitOfWork(), Program.BRRAG, 600_000)
        u = closing.uow
        closing.clearance(date(2024, 11, 1))
        made = _run(
            u,
            lambda: board_actions.record_board_action(
                u,
                AUTHORITY_USER,
                RULES,
                RecordBoardAction(
                    closing.seller,
                    "approve",
                    500_000,
                    date(2024, 9, 1),
                    date(2024, 10, 30),
                    date(2024, 11, 20),
                    [],
                ),
            ),
        )
        _run(
            u,
            lambda: board_actions.record_governor_decision(
                u,
                AUTHORITY_USER,
                RULES,
                RecordGovernorDecision(made["id"], "approve", date(2024, 11, 20)),
            ),
        )
        closing.file_agreement()
        refused = closing.refused()
        assert refused.code == "board_approval_exceeded"
        assert (refused.details["approved_cents"], refused.details["amount_cents"]) == (
            500_000,
            600_000,
        )
        covered = closing.sale(500_000)
        closing.file_agreement(covered)
        assert _run(u, lambda: closing.approve(covered))["status"] == "approved"
