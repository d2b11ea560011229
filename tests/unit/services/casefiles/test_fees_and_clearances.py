"""Fees and tax clearance in a FakeUnitOfWork (ADM-3, ADM-4, ADM-11, ADM-12)."""

from __future__ import annotations

from datetime import date

import pytest

from market.domain.casefile_errors import (
    FeesUnpaidError,
    OverpaymentError,
    TaxClearanceExpiredError,
    TaxClearanceMissingError,
)
from market.domain.commands.casefiles import RecordClearance, RecordFeePayment
from market.domain.errors import InvalidRequestError
from market.domain.model import Certificate
from market.domain.programs import Program
from market.services.casefiles import clearances, fees, gates
from market.services.kernel import clock
from market.services.kernel.errors import ConflictError, ForbiddenError
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services.world import AUTHORITY_USER, RULES, participant, party


def uth_certificate(certificate_id: str, holder: str) -> Certificate:
    """An original UTH certificate as the rules read it (only whose and which program
    matter to its transfer fee)."""
    return Certificate(
        id=certificate_id,
        number="UTH-1",
        program=Program.UTH,
        holder_party_id=holder,
        original_holder_party_id=holder,
        root_id=certificate_id,
        origin="issued",
        fiscal_year=2025,
        allowed_cents=1_000_000,
        balance_cents=1_000_000,
        queued_cents=0,
        children_count=0,
        tax_types=(),
        tax_periods=(),
        credit_year=None,
        carryover_last_year=None,
        waiver_statement="",
    )


@pytest.fixture
def uow() -> FakeUnitOfWork:
    clock.configure("2025-03-03")
    return FakeUnitOfWork()


def test_a_uth_transfer_is_invoiced_2500_and_blocks_until_paid(uow: FakeUnitOfWork) -> None:
    seller = party(uow, "UTH Seller")
    cert = uth_certificate("crt_u", seller)
    with uow:
        gates.invoice_transfer_fee(uow, AUTHORITY_USER, "trf_u", cert, RULES)
        gates.invoice_transfer_fee(uow, AUTHORITY_USER, "trf_u", cert, RULES)  # once only
        uow.commit()
    [fee] = fees.list_fees(uow, participant(seller), None)
    assert (fee["kind"], fee["amount_cents"], fee["due_cents"]) == (
        "uth_transfer",
        250_000,
        250_000,
    )
    with pytest.raises(FeesUnpaidError) as e:
        fees.require_paid(uow, ["trf_u"], "Final approval")
    assert e.value.details["due_cents"] == 250_000
    with uow, pytest.raises(ForbiddenError):
        fees.record_payment(
            uow, participant(seller), RecordFeePayment(fee["id"], 1, "check", "x", date(2025, 3, 3))
        )
    with uow, pytest.raises(OverpaymentError):
        fees.record_payment(
            uow, AUTHORITY_USER, RecordFeePayment(fee["id"], 250_001, "wire", "W", date(2025, 3, 3))
        )
    with uow, pytest.raises(InvalidRequestError):
        fees.record_payment(
            uow, AUTHORITY_USER, RecordFeePayment(fee["id"], 100, "wire", "W", date(2025, 3, 4))
        )
    with uow:
        part = fees.record_payment(
            uow, AUTHORITY_USER, RecordFeePayment(fee["id"], 50_000, "ach", "A1", date(2025, 3, 1))
        )
        assert (part["status"], part["due_cents"]) == ("partly_paid", 200_000)
        fees.record_payment(
            uow, AUTHORITY_USER, RecordFeePayment(fee["id"], 200_000, "ach", "A2", date(2025, 3, 2))
        )
        uow.commit()
    fees.require_paid(uow, ["trf_u"], "Final approval")
    assert len(uow.fees.payments(fee["id"])) == 2


def test_no_uth_fee_in_the_bills_era(uow: FakeUnitOfWork) -> None:
    clock.configure("2014-09-01")
    seller = party(uow, "Old UTH Seller")
    with uow:
        gates.invoice_transfer_fee(
            uow,
            AUTHORITY_USER,
            "trf_o",
            uth_certificate("c", seller),
            RULES,
        )
        uow.commit()
    assert fees.list_fees(uow, AUTHORITY_USER, seller) == []


def test_clearance_states_and_renewal_rules(uow: FakeUnitOfWork) -> None:
    seller = party(uow, "Cleared Co")
    on = date(2025, 3, 3)
    with pytest.raises(TaxClearanceMissingError):
        clearances.require_valid(uow, seller, "TECH", on, RULES)
    with uow:
        first = clearances.record_clearance(
            uow, AUTHORITY_USER, RULES, RecordClearance(seller, "C-1", date(2024, 10, 1), "TECH")
        )
        uow.commit()
    with pytest.raises(TaxClearanceExpiredError):
        clearances.require_valid(uow, seller, "TECH", on, RULES)
    clearances.require_valid(uow, seller, "TECH", date(2024, 12, 29), RULES)
    with pytest.raises(TaxClearanceMissingError):
        clearances.require_valid(uow, seller, "UTH", date(2024, 12, 29), RULES)  # per program
    previous = first["id"]
    for n, day in enumerate((date(2024, 12, 1), date(2025, 1, 15), date(2025, 2, 20)), start=2):
        with uow:
            row = clearances.record_clearance(
                uow, AUTHORITY_USER, RULES, RecordClearance(seller, f"C-{n}", day, "TECH", previous)
            )
            uow.commit()
        previous = row["id"]
    assert row["renewals_left"] == 0
    clearances.require_valid(uow, seller, "TECH", on, RULES)
    with uow, pytest.raises(InvalidRequestError, match="at most 3"):
        clearances.record_clearance(
            uow, AUTHORITY_USER, RULES, RecordClearance(seller, "C-9", on, "TECH", previous)
        )
    with uow, pytest.raises(ConflictError):
        clearances.record_clearance(
            uow, AUTHORITY_USER, RULES, RecordClearance(seller, "C-8", on, "TECH", first["id"])
        )  # already renewed
    with uow, pytest.raises(ForbiddenError):
        clearances.record_clearance(
            uow, participant(seller), RULES, RecordClearance(seller, "C-7", on, "TECH")
        )
    assert len(uow.tax_clearances.of_party(seller)) == 4
