"""A ruleset may make approval wait for the money (`approval_requires_funding`), over the
FakeUnitOfWork: until the seller confirms receipt of the whole price, approval is refused
`funding_not_confirmed` and writes nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from market.domain.commands.trading import CreateTransfer, RecordPayment
from market.domain.errors import DomainError
from market.services.trading.funding import confirm_receipt, record_payment
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

FUNDED = replace(RULES, approval_requires_funding=True)
M = 100_000_000
PRICE = 80 * M // 100


@pytest.fixture
def deal() -> tuple[FakeUnitOfWork, str, str, str]:
    """(the unit of work, seller, buyer, a $1,000,000 sale for $800,000 the buyer confirmed)."""
    uow = FakeUnitOfWork()
    seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
    cert = world.certificate(uow, seller)
    with uow:
        t = create_transfer(
            uow, participant(seller), CreateTransfer(cert, buyer, M, PRICE, None), FUNDED
        )
        confirm_transfer(uow, participant(buyer), t["id"], FUNDED)
        uow.commit()
    return uow, seller, buyer, str(t["id"])


def _paid(uow: FakeUnitOfWork, seller: str, buyer: str, transfer: str, amount: int) -> None:
    with uow:
        record_payment(
            uow, participant(buyer), RecordPayment(transfer, "FEDWIRE 1", amount, date(2014, 8, 30))
        )
        confirm_receipt(uow, participant(seller), transfer, date(2014, 8, 31))
        uow.commit()


def _refused(uow: FakeUnitOfWork, transfer: str) -> DomainError:
    before = list(uow.events)
    with uow, pytest.raises(DomainError) as refused:
        approve_transfer(uow, AUTHORITY_USER, transfer, FUNDED)
    assert (refused.value.code, status_of(refused.value)) == ("funding_not_confirmed", 422)
    assert uow.events == before
    return refused.value


def test_an_unpaid_transfer_is_not_approved(deal: tuple[FakeUnitOfWork, str, str, str]) -> None:
    uow, _, _, transfer = deal
    _refused(uow, transfer)


def test_a_payment_short_of_the_price_is_not_enough(
    deal: tuple[FakeUnitOfWork, str, str, str],
) -> None:
    uow, seller, buyer, transfer = deal
    _paid(uow, seller, buyer, transfer, PRICE - 10 * M // 100)
    assert _refused(uow, transfer).details["funding_status"] == "received"


def test_the_whole_price_received_lets_it_be_approved(
    deal: tuple[FakeUnitOfWork, str, str, str],
) -> None:
    uow, seller, buyer, transfer = deal
    _paid(uow, seller, buyer, transfer, PRICE)
    with uow:
        approved = approve_transfer(uow, AUTHORITY_USER, transfer, FUNDED)
        uow.commit()
    assert approved["status"] == "approved"


def test_without_the_setting_approval_does_not_wait(
    deal: tuple[FakeUnitOfWork, str, str, str],
) -> None:
    uow, _, _, transfer = deal
    with uow:
        assert approve_transfer(uow, AUTHORITY_USER, transfer, RULES)["status"] == "approved"
