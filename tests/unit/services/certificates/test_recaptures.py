"""Recaptures over the FakeUnitOfWork: assessed on the business the credit was issued to,
never on a buyer, the fund following that business's tax type (BR-13, AMB-10, AMB-46);
a TECH seller's headquarters recapture is per transfer, inside its own 5-year window and
never for a liquidation (TB-40, AMB-47). Each refusal writes nothing."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.domain.programs import Program
from market.services.certificates.recaptures import NewRecapture, assess_recapture
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

M = 100_000_000


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def _sale(
    uow: FakeUnitOfWork, seller: str, cert: str, buyer: str, amount: int, on: date | None = None
) -> dict[str, Any]:
    """`amount` of `cert` sold to `buyer` at 80% and approved (exchanged `on`)."""
    with uow:
        command = CreateTransfer(cert, buyer, amount, amount * 4 // 5, None)
        t = create_transfer(uow, participant(seller), command, RULES)
        confirm_transfer(uow, participant(buyer), t["id"], RULES)
        approved = approve_transfer(uow, AUTHORITY_USER, t["id"], RULES, on)
        uow.commit()
    return approved


def _assess(uow: FakeUnitOfWork, new: NewRecapture) -> dict[str, Any]:
    with uow:
        found = assess_recapture(uow, AUTHORITY_USER, new)
        uow.commit()
    return found


def _refused(
    uow: FakeUnitOfWork, new: NewRecapture, code: str = "recapture_not_allowed"
) -> DomainError:
    before = list(uow.events)
    with pytest.raises(DomainError) as refused:
        _assess(uow, new)
    assert (refused.value.code, status_of(refused.value)) == (code, 422)
    assert uow.events == before
    return refused.value


class TestTheBusinessPays:
    @pytest.fixture
    def sold(self, uow: FakeUnitOfWork) -> tuple[str, str, str, str]:
        """(seller, buyer, the seller's BRRAG award, the buyer's certificate)."""
        seller = world.party(uow, "Seller", tax_types=["GIT"], entity_type="llc")
        buyer = world.party(uow, "Buyer")
        cert = world.certificate(uow, seller, Program.BRRAG, face_cents=2 * M)
        return seller, buyer, cert, str(_sale(uow, seller, cert, buyer, M)["buyer_certificate_id"])

    @pytest.mark.parametrize(
        ("who", "what", "extra"),
        [
            ("buyer", "bought", {}),  # the buyer's certificate
            ("seller", "bought", {}),
            ("buyer", "award", {}),  # not the business it was issued to
            ("buyer", None, {"program": "BRRAG"}),  # a buyer with no credit issued
            ("seller", "award", {"tax_type": "CBT"}),  # an LLC paying GIT
        ],
    )
    def test_anyone_but_the_business_is_refused(
        self,
        uow: FakeUnitOfWork,
        sold: tuple[str, str, str, str],
        who: str,
        what: str | None,
        extra: dict[str, Any],
    ) -> None:
        seller, buyer, cert, bought = sold
        party = {"seller": seller, "buyer": buyer}[who]
        target = {"award": cert, "bought": bought, None: None}[what]
        refused = _refused(uow, NewRecapture(party, 1000, "r", target, **extra))
        assert "BR-13" in refused.message

    def test_the_business_pays_into_its_tax_types_fund_and_the_buyer_keeps_its_credit(
        self, uow: FakeUnitOfWork, sold: tuple[str, str, str, str]
    ) -> None:
        seller, _, cert, bought = sold
        found = _assess(uow, NewRecapture(seller, 1000, "Jobs not retained", cert))
        assert found["fund"] == "property_tax_relief_fund"  # a GIT business
        assert uow.certificates.get(bought)["balance_cents"] == M  # type: ignore[index]


class TestHeadquartersWindow:
    @pytest.fixture
    def tech_sale(self, uow: FakeUnitOfWork) -> tuple[str, str, str]:
        """(seller, buyer, transfer): a TECH sale exchanged 2014-07-01, window to 2019-07-01."""
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = world.certificate(uow, seller, Program.TECH, face_cents=M)
        sale = _sale(uow, seller, cert, buyer, M, date(2014, 7, 1))
        assert sale["hq_window_end"] == "2019-07-01"
        return seller, buyer, str(sale["id"])

    def _hq(self, party: str, transfer: str, on: date, liquidation: bool = False) -> NewRecapture:
        return NewRecapture(
            party,
            5_000_000,
            "Moved its headquarters to Pennsylvania.",
            transfer_id=transfer,
            basis="hq_not_maintained",
            occurred_on=on,
            liquidation=liquidation,
        )

    def test_a_move_inside_the_window_is_recaptured_from_the_seller(
        self, uow: FakeUnitOfWork, tech_sale: tuple[str, str, str]
    ) -> None:
        seller, _, transfer = tech_sale
        found = _assess(uow, self._hq(seller, transfer, date(2016, 2, 1)))
        assert (found["fund"], found["hq_window_end"]) == ("general_fund", "2019-07-01")

    @pytest.mark.parametrize(
        ("who", "on", "liquidation", "code", "words"),
        [
            ("seller", date(2019, 7, 2), False, "recapture_not_allowed", "ended on 2019-07-01"),
            ("seller", date(2015, 1, 1), True, "recapture_not_allowed", "liquidation"),
            ("buyer", date(2015, 1, 1), False, "recapture_not_allowed", "never on a"),
        ],
    )
    def test_after_the_window_by_liquidation_or_on_the_buyer_it_is_refused(
        self,
        uow: FakeUnitOfWork,
        tech_sale: tuple[str, str, str],
        who: str,
        on: date,
        liquidation: bool,
        code: str,
        words: str,
    ) -> None:
        seller, buyer, transfer = tech_sale
        party = seller if who == "seller" else buyer
        new = self._hq(party, transfer, on, liquidation)
        assert words in _refused(uow, new, code).message
