"""Transfers over the FakeUnitOfWork: accepting an offer, a negotiated transfer waiting
for its buyer (PRODUCT.md 8.2), the same cents promised twice, the TECH affiliation bar
(TB-20) and the Authority's approval and rejection, each in milliseconds."""

from __future__ import annotations

import pytest

from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.domain.errors import (
    AffiliatedPartiesError,
    BelowMinimumConsiderationError,
    DomainError,
    InsufficientBalanceError,
    InvalidRequestError,
)
from market.domain.programs import Program
from market.services.certificates import halts
from market.services.kernel.errors import ConflictError, ForbiddenError
from market.services.trading.listings import create_listing, make_offer
from market.services.trading.transfer_decisions import approve_transfer, reject_transfer
from market.services.trading.transfers import (
    accept_offer,
    confirm_transfer,
    create_transfer,
    decline_transfer,
)
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

DOLLARS = 100  # cents
FACE = 1_000_000 * DOLLARS


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


@pytest.fixture
def market(uow: FakeUnitOfWork) -> tuple[str, str, str]:
    """A seller holding a $1,000,000 digital media CBT certificate, and a buyer."""
    seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
    return seller, buyer, world.certificate(uow, seller, face_cents=FACE)


def _negotiate(uow: FakeUnitOfWork, seller: str, cert: str, buyer: str, amount: int) -> str:
    with uow:
        t = create_transfer(
            uow,
            participant(seller),
            CreateTransfer(cert, buyer, amount, amount * 3 // 4, None),
            RULES,
        )
        uow.commit()
    return str(t["id"])


def _confirm(uow: FakeUnitOfWork, buyer: str, transfer_id: str) -> None:
    with uow:
        confirm_transfer(uow, participant(buyer), transfer_id, RULES)
        uow.commit()


def _approve(uow: FakeUnitOfWork, transfer_id: str) -> dict[str, object]:
    with uow:
        t = approve_transfer(uow, AUTHORITY_USER, transfer_id, RULES)
        uow.commit()
    return t


class TestAcceptOffer:
    def test_accepting_an_offer_proposes_a_transfer_to_the_authority(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        with uow:
            listing = create_listing(
                uow, participant(seller), CreateListing(cert, FACE, FACE * 3 // 4), RULES
            )
            offer = make_offer(
                uow, participant(buyer), MakeOffer(listing["id"], FACE, FACE * 3 // 4), RULES
            )
            accepted = accept_offer(uow, participant(seller), offer["id"], RULES)
            uow.commit()
        assert accepted["status"] == "accepted"
        # The offer was the buyer's own: its transfer goes straight to the Authority.
        assert accepted["transfer"]["status"] == "pending_approval"
        assert uow.types()[-2:] == ["OFFER_ACCEPTED", "TRANSFER_PROPOSED"]

    def test_only_the_seller_may_accept(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        with uow:
            listing = create_listing(
                uow, participant(seller), CreateListing(cert, FACE, FACE * 3 // 4), RULES
            )
            offer = make_offer(
                uow, participant(buyer), MakeOffer(listing["id"], FACE, FACE * 3 // 4), RULES
            )
            uow.commit()
        with uow, pytest.raises(DomainError) as refused:
            accept_offer(uow, participant(buyer), offer["id"], RULES)
        assert status_of(refused.value) == 404  # another party's offer does not exist for it


class TestNegotiatedTransfer:
    def test_it_waits_for_the_buyer_before_the_authority_may_decide(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, FACE // 2)
        assert uow.transfers.get(transfer)["status"] == "awaiting_buyer"  # type: ignore[index]
        with uow, pytest.raises(ConflictError) as early:
            approve_transfer(uow, AUTHORITY_USER, transfer, RULES)
        assert early.value.code == "awaiting_buyer"
        _confirm(uow, buyer, transfer)
        assert _approve(uow, transfer)["status"] == "approved"
        assert uow.types()[-4:] == [
            "TRANSFER_PROPOSED",
            "TRANSFER_CONFIRMED",
            "TRANSFER_APPROVED",
            "CERT_ISSUED",
        ]

    def test_only_the_buyer_may_confirm(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, FACE // 2)
        for someone in (participant(seller), AUTHORITY_USER):
            with uow, pytest.raises(ForbiddenError):
                confirm_transfer(uow, someone, transfer, RULES)

    def test_a_declined_transfer_cannot_be_approved(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, FACE // 2)
        with uow:
            declined = decline_transfer(uow, participant(buyer), transfer, "  Not now ")
            uow.commit()
        assert (declined["status"], declined["reasons"]) == ("declined", ["Not now"])
        with uow, pytest.raises(ConflictError):
            approve_transfer(uow, AUTHORITY_USER, transfer, RULES)

    def test_a_price_below_75_percent_is_refused(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        # RULES.md M-4's floor: $300,000 for $400,000 passes, a cent less does not.
        seller, buyer, cert = market
        amount = 400_000 * DOLLARS
        with uow, pytest.raises(BelowMinimumConsiderationError):
            create_transfer(
                uow,
                participant(seller),
                CreateTransfer(cert, buyer, amount, amount * 3 // 4 - 1, None),
                RULES,
            )
        assert _negotiate(uow, seller, cert, buyer, amount)

    def test_more_than_the_usable_balance_is_refused(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        with uow, pytest.raises(InsufficientBalanceError):
            create_transfer(
                uow, participant(seller), CreateTransfer(cert, buyer, FACE + 1, FACE, None), RULES
            )

    def test_affiliated_tech_parties_cannot_transfer(self, uow: FakeUnitOfWork) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        world.owns(uow, buyer, seller, 500)  # a 5% owner of the seller (TB-20)
        cert = world.certificate(uow, seller, Program.TECH, face_cents=217_400 * DOLLARS)
        with uow, pytest.raises(AffiliatedPartiesError) as refused:
            create_transfer(
                uow,
                participant(seller),
                CreateTransfer(cert, buyer, 217_400 * DOLLARS, 173_920 * DOLLARS, None),
                RULES,
            )
        assert any(not c["passed"] for c in refused.value.details["checks"])


class TestDoubleSpend:
    def test_the_same_cents_cannot_be_promised_to_two_buyers(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        other = world.party(uow, "Other buyer")
        _negotiate(uow, seller, cert, buyer, FACE)
        with uow, pytest.raises(InsufficientBalanceError):
            create_transfer(
                uow,
                participant(seller),
                CreateTransfer(cert, other, FACE, FACE * 3 // 4, None),
                RULES,
            )

    def test_once_approved_the_cents_are_gone_from_the_seller(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, FACE)
        _confirm(uow, buyer, transfer)
        _approve(uow, transfer)
        sold = uow.certificates.get(cert)
        assert sold is not None
        assert (sold["balance_cents"], sold["status"]) == (0, "exhausted")
        with uow, pytest.raises(InsufficientBalanceError):
            create_transfer(
                uow, participant(seller), CreateTransfer(cert, buyer, 1, 1, None), RULES
            )


class TestApproval:
    def test_the_buyer_gets_a_certificate_for_the_amount_derived_from_the_sellers(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, 400_000 * DOLLARS)
        _confirm(uow, buyer, transfer)
        approved = _approve(uow, transfer)
        bought = uow.certificates.get(str(approved["buyer_certificate_id"]))
        parent = uow.certificates.get(cert)
        assert bought is not None and parent is not None
        assert bought["holder_party_id"] == buyer
        assert (bought["face_cents"], bought["parent_id"], bought["origin"]) == (
            400_000 * DOLLARS,
            cert,
            "transfer",
        )
        assert bought["number"] == f"{parent['number']}-T1"
        assert parent["balance_cents"] == 600_000 * DOLLARS

    def test_approval_checks_again_and_a_halt_since_refuses_it_writing_nothing(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, FACE // 2)
        _confirm(uow, buyer, transfer)
        with uow:
            halts.issue_notice(uow, AUTHORITY_USER, cert, "invalidity", "Under review")
            uow.commit()
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            approve_transfer(uow, AUTHORITY_USER, transfer, RULES)
        assert refused.value.code == "trading_halted"
        assert uow.events == before

    def test_only_the_authority_approves(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, FACE // 2)
        _confirm(uow, buyer, transfer)
        with uow, pytest.raises(ForbiddenError):
            approve_transfer(uow, participant(seller), transfer, RULES)


class TestRejection:
    def test_the_authority_rejects_with_a_reason_before_or_after_the_buyer_confirms(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        waiting = _negotiate(uow, seller, cert, buyer, FACE // 4)
        confirmed = _negotiate(uow, seller, cert, buyer, FACE // 4)
        _confirm(uow, buyer, confirmed)
        for transfer in (waiting, confirmed):
            with uow:
                rejected = reject_transfer(uow, AUTHORITY_USER, transfer, " Incomplete file ")
                uow.commit()
            assert (rejected["status"], rejected["reasons"]) == ("rejected", ["Incomplete file"])
        # Rejected transfers promise nothing: the whole balance may be sold again.
        assert _negotiate(uow, seller, cert, buyer, FACE)

    def test_a_rejection_needs_a_reason(
        self, uow: FakeUnitOfWork, market: tuple[str, str, str]
    ) -> None:
        seller, buyer, cert = market
        transfer = _negotiate(uow, seller, cert, buyer, FACE // 4)
        with uow, pytest.raises(InvalidRequestError):
            reject_transfer(uow, AUTHORITY_USER, transfer, "   ")
