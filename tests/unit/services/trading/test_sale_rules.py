"""The rules of a sale as the trading use cases refuse them, over the FakeUnitOfWork: the
minimum consideration per program (CMN-5, RULES.md 5.3 M-1..M-3), the buyer's tax types
(CMN-3), no resale (CMN-6), the individual buyer (PT-7, AMB-53), the TECH affiliation bar
and the seller's eligibility at the exchange (TB-20, TB-21; none outside TECH, BR-10), the
digital media queue (DMQ-2) and the balance approval checks again. Each refusal writes
nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any, ClassVar

import pytest

from market.domain.commands.parties import RecordOwnership
from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.domain.errors import (
    AffiliatedPartiesError,
    BelowMinimumConsiderationError,
    IneligibleSellerError,
    InsufficientBalanceError,
    ResaleNotAllowedError,
    TaxTypeNotAllowedError,
)
from market.domain.programs import Program
from market.domain.rules.individuals import IndividualPurchaseError
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.certificates.recaptures import NewRecapture, assess_recapture
from market.services.parties.director_exceptions import record_exception
from market.services.parties.parties import record_ownership
from market.services.trading.listings import create_listing, make_offer
from market.services.trading.transfer_decisions import approve_transfer, reject_transfer
from market.services.trading.transfers import accept_offer, confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

DOLLARS = 100  # cents
MILLION = 1_000_000 * DOLLARS
TRANCHE = 2_400_000 * DOLLARS  # RULES.md M-1


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def _issue(uow: FakeUnitOfWork, new: NewCertificate) -> dict[str, Any]:
    with uow:
        cert = issue_certificate(uow, AUTHORITY_USER, new, RULES)
        uow.commit()
    return cert


def _brrag(uow: FakeUnitOfWork, holder: str, face: int = MILLION) -> str:
    new = NewCertificate(
        "BRRAG",
        holder,
        face,
        2014,
        retained_jobs=-(-face // 150_000),
        nj_operations_since=date(2000, 1, 1),
        cannot_use_before_expiry=True,
    )
    return str(_issue(uow, new)["id"])


def _uth(uow: FakeUnitOfWork, holder: str) -> str:
    """A $24,000,000 UTH award: ten $2,400,000 installments from the 2013 period."""
    return str(
        _issue(uow, NewCertificate("UTH", holder, 24 * MILLION, 2014, tax_periods=[2013]))["id"]
    )


def _negotiate(
    uow: FakeUnitOfWork, seller: str, cert: str, buyer: str, amount: int, price: int
) -> str:
    with uow:
        t = create_transfer(
            uow, participant(seller), CreateTransfer(cert, buyer, amount, price, None), RULES
        )
        uow.commit()
    return str(t["id"])


def _sold(uow: FakeUnitOfWork, seller: str, cert: str, buyer: str, amount: int) -> str:
    """`amount` of `cert` sold to `buyer` at face and approved: the buyer's certificate."""
    transfer = _negotiate(uow, seller, cert, buyer, amount, amount)
    with uow:
        confirm_transfer(uow, participant(buyer), transfer, RULES)
        approved = approve_transfer(uow, AUTHORITY_USER, transfer, RULES)
        uow.commit()
    return str(approved["buyer_certificate_id"])


def _listing(uow: FakeUnitOfWork, seller: str, cert: str, amount: int, ask: int) -> str:
    with uow:
        listing = create_listing(uow, participant(seller), CreateListing(cert, amount, ask), RULES)
        uow.commit()
    return str(listing["id"])


def _offer(uow: FakeUnitOfWork, buyer: str, listing: str, amount: int, price: int) -> str:
    with uow:
        offer = make_offer(uow, participant(buyer), MakeOffer(listing, amount, price), RULES)
        uow.commit()
    return str(offer["id"])


class TestMinimumConsideration:
    # RULES.md 5.3: (program, the portion sold, the last price refused, the floor); M-4,
    # digital media's 75%, is in test_transfers.py.
    EXAMPLES: ClassVar[list[Any]] = [
        pytest.param(
            Program.TECH, 217_400 * DOLLARS, 173_900 * DOLLARS, 173_920 * DOLLARS, id="M-2"
        ),
        pytest.param(Program.TECH, 112_125 * DOLLARS, 8_969_999, 8_970_000, id="M-3"),
        pytest.param(Program.TECH, MILLION, 79_990_000, 80 * MILLION // 100, id="TECH-80%"),
        pytest.param(
            Program.BRRAG, MILLION, 70 * MILLION // 100, 75 * MILLION // 100, id="BRRAG-75%"
        ),
    ]

    @pytest.mark.parametrize(("program", "amount", "refused", "floor"), EXAMPLES)
    def test_a_price_below_the_programs_floor_is_refused_and_the_floor_passes(
        self, uow: FakeUnitOfWork, program: Program, amount: int, refused: int, floor: int
    ) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = world.certificate(uow, seller, program, face_cents=amount * 2)
        before = list(uow.events)
        with uow, pytest.raises(BelowMinimumConsiderationError) as below:
            create_transfer(
                uow, participant(seller), CreateTransfer(cert, buyer, amount, refused, None), RULES
            )
        assert status_of(below.value) == 422
        assert below.value.details["floor_cents"] == floor
        assert uow.events == before
        assert _negotiate(uow, seller, cert, buyer, amount, floor)

    def test_m1_an_offer_for_a_uth_tranche_at_74_5833_percent_is_refused(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        listing = _listing(uow, seller, _uth(uow, seller), TRANCHE, TRANCHE * 19 // 24)
        before = list(uow.events)
        with uow, pytest.raises(BelowMinimumConsiderationError) as below:
            make_offer(
                uow, participant(buyer), MakeOffer(listing, TRANCHE, 1_790_000 * DOLLARS), RULES
            )
        assert below.value.details["floor_cents"] == 1_800_000 * DOLLARS
        assert below.value.details["ratio_percent"] == "74.5833%"
        assert uow.events == before
        assert _offer(uow, buyer, listing, TRANCHE, 1_800_000 * DOLLARS)

    def test_a_listing_cannot_ask_below_the_floor_for_its_amount(self, uow: FakeUnitOfWork) -> None:
        seller = world.party(uow, "Seller")
        cert = _brrag(uow, seller, 2 * MILLION)
        before = list(uow.events)
        with uow, pytest.raises(BelowMinimumConsiderationError) as below:
            create_listing(
                uow, participant(seller), CreateListing(cert, MILLION, 74_999_999), RULES
            )
        assert below.value.message.startswith("The ask is below the floor")
        assert "BRRAG requires at least 75%" in below.value.message
        assert "CMN-5" in below.value.message
        assert below.value.details["floor_cents"] == 75 * MILLION // 100
        assert uow.events == before


class TestBuyerTaxTypes:
    def test_an_insurer_cannot_buy_a_digital_media_git_credit(self, uow: FakeUnitOfWork) -> None:
        seller = world.party(uow, "Seller", tax_types=["GIT"])
        insurer = world.party(uow, "Insurer", tax_types=["IPT"], entity_type="insurance_company")
        cert = world.certificate(uow, seller, Program.DM_GIT, face_cents=MILLION)
        before = list(uow.events)
        with uow, pytest.raises(TaxTypeNotAllowedError) as refused:
            create_transfer(
                uow,
                participant(seller),
                CreateTransfer(cert, insurer, 40 * MILLION // 100, 30 * MILLION // 100, None),
                RULES,
            )
        assert refused.value.details["allowed"] == ["CBT", "GIT"]
        assert uow.events == before

    def test_a_git_payer_may_buy_it(self, uow: FakeUnitOfWork) -> None:
        seller = world.party(uow, "Seller", tax_types=["GIT"])
        buyer = world.party(uow, "Buyer", tax_types=["GIT"], entity_type="llc")
        cert = world.certificate(uow, seller, Program.DM_GIT, face_cents=MILLION)
        assert _negotiate(uow, seller, cert, buyer, 40 * MILLION // 100, 30 * MILLION // 100)


class TestNoResale:
    def _bought(self, uow: FakeUnitOfWork) -> tuple[str, str, str]:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        return seller, buyer, _sold(uow, seller, _brrag(uow, seller), buyer, MILLION)

    def test_a_buyer_cannot_list_what_it_bought(self, uow: FakeUnitOfWork) -> None:
        _, buyer, bought = self._bought(uow)
        before = list(uow.events)
        with uow, pytest.raises(ResaleNotAllowedError) as refused:
            create_listing(uow, participant(buyer), CreateListing(bought, MILLION, MILLION), RULES)
        assert refused.value.details == {"ruleset": RULES.name}
        assert uow.events == before

    def test_a_buyer_cannot_sell_what_it_bought_by_negotiation(self, uow: FakeUnitOfWork) -> None:
        seller, buyer, bought = self._bought(uow)
        before = list(uow.events)
        with uow, pytest.raises(ResaleNotAllowedError):
            create_transfer(
                uow,
                participant(buyer),
                CreateTransfer(bought, seller, MILLION, MILLION, None),
                RULES,
            )
        assert uow.events == before


class TestIndividualBuyer:
    @pytest.mark.parametrize("program", [Program.DM_GIT, Program.BRRAG])
    def test_an_individual_buys_only_under_the_directors_exception(
        self, uow: FakeUnitOfWork, program: Program
    ) -> None:
        seller = world.party(uow, "Seller", tax_types=["GIT"])
        ann = world.party(uow, "Ann Investor", entity_type="individual", tax_types=["GIT"])
        cert = world.certificate(uow, seller, program, face_cents=MILLION)
        before = list(uow.events)
        with uow, pytest.raises(IndividualPurchaseError) as refused:
            create_transfer(
                uow, participant(seller), CreateTransfer(cert, ann, MILLION, MILLION, None), RULES
            )
        assert refused.value.code == "individual_purchase_not_allowed"
        assert "(PT-7, AMB-53)" in refused.value.message
        assert refused.value.details["program"] == program.value
        assert uow.events == before
        with uow:
            record_exception(uow, AUTHORITY_USER, ann, "Director's letter of 2014-05-02")
            uow.commit()
        assert _negotiate(uow, seller, cert, ann, MILLION, MILLION)

    def test_an_individuals_offer_on_a_uth_listing_is_refused(self, uow: FakeUnitOfWork) -> None:
        seller = world.party(uow, "Seller", tax_types=["GIT"])
        bob = world.party(uow, "Bob Investor", entity_type="individual")
        listing = _listing(uow, seller, _uth(uow, seller), TRANCHE, TRANCHE * 19 // 24)
        before = list(uow.events)
        with uow, pytest.raises(IndividualPurchaseError) as refused:
            make_offer(
                uow, participant(bob), MakeOffer(listing, TRANCHE, TRANCHE * 19 // 24), RULES
            )
        assert "buys a UTH credit through a business entity" in refused.value.message
        assert uow.events == before


class TestTechParties:
    def test_a_6_percent_voting_owner_is_refused_with_the_ownership_path(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        with uow:
            record_ownership(
                uow, AUTHORITY_USER, RecordOwnership(seller, buyer, 600, 0)
            )  # votes, not value
            uow.commit()
        cert = world.certificate(uow, seller, Program.TECH, face_cents=2 * MILLION)
        listing = _listing(uow, seller, cert, MILLION, 90 * MILLION // 100)
        before = list(uow.events)
        with uow, pytest.raises(AffiliatedPartiesError) as refused:
            make_offer(
                uow, participant(buyer), MakeOffer(listing, MILLION, 90 * MILLION // 100), RULES
            )
        assert refused.value.details["reasons"]
        assert any(buyer in path for path in refused.value.details["paths"])  # type: ignore[attr-defined]
        assert uow.events == before

    def test_outside_tech_affiliated_parties_may_trade(self, uow: FakeUnitOfWork) -> None:
        # BR-10: the affiliation bar is TECH's alone.
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        world.owns(uow, buyer, seller, 10_000)
        assert _negotiate(uow, seller, _brrag(uow, seller), buyer, MILLION, 75 * MILLION // 100)

    def test_a_seller_ineligible_at_the_exchange_blocks_approval_writing_nothing(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller = world.party(uow, "Seller", us_employees=400, formed_on="2005-01-01")
        buyer = world.party(uow, "Buyer")
        cert = world.certificate(uow, seller, Program.TECH, face_cents=MILLION)
        transfer = _negotiate(uow, seller, cert, buyer, MILLION, 80 * MILLION // 100)
        with uow:
            confirm_transfer(uow, participant(buyer), transfer, RULES)
            uow.commit()
        before = list(uow.events)
        with uow, pytest.raises(IneligibleSellerError) as refused:
            approve_transfer(uow, AUTHORITY_USER, transfer, RULES)
        assert "too_many_us_employees" in refused.value.details["reasons"]  # type: ignore[operator]
        failed = [c["rule"] for c in refused.value.details["checks"] if not c["passed"]]  # type: ignore[attr-defined]
        assert failed == ["seller_eligibility"]
        assert uow.events == before
        assert uow.transfers.get(transfer)["status"] == "pending_approval"  # type: ignore[index]
        assert uow.certificates.get(cert)["balance_cents"] == MILLION  # type: ignore[index]


class TestBalance:
    def test_queued_digital_media_cents_cannot_be_sold_until_allowed(
        self, uow: FakeUnitOfWork
    ) -> None:
        # DMQ-2: of a $3M certificate issued after $4M, $1M is allowed and $2M queued.
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        _issue(uow, NewCertificate("DM_CBT", seller, 4 * MILLION, 2014))
        cert = _issue(uow, NewCertificate("DM_CBT", seller, 3 * MILLION, 2014))
        assert (cert["status"], cert["balance_cents"]) == ("partially_queued", MILLION)
        with uow, pytest.raises(InsufficientBalanceError) as refused:
            create_transfer(
                uow,
                participant(seller),
                CreateTransfer(cert["id"], buyer, 2 * MILLION, 2 * MILLION, None),
                RULES,
            )
        assert refused.value.details["queued_cents"] == 2 * MILLION
        assert _negotiate(uow, seller, cert["id"], buyer, MILLION, MILLION)

    def test_listings_and_pending_transfers_never_promise_more_than_the_balance(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = _brrag(uow, seller, 2 * MILLION)
        _listing(uow, seller, cert, MILLION, MILLION)
        _negotiate(uow, seller, cert, buyer, MILLION // 2, MILLION // 2)  # awaiting the buyer
        before = list(uow.events)
        attempts: list[Callable[[], Any]] = [
            lambda: create_listing(
                uow, participant(seller), CreateListing(cert, MILLION // 2 + 1, MILLION), RULES
            ),
            lambda: create_transfer(
                uow,
                participant(seller),
                CreateTransfer(cert, buyer, MILLION // 2 + 1, MILLION, None),
                RULES,
            ),
        ]
        for attempt in attempts:
            with uow, pytest.raises(InsufficientBalanceError) as refused:
                attempt()
            assert refused.value.details == {
                "balance_cents": 2 * MILLION,
                "committed_cents": 3 * MILLION // 2,
                "would_commit_cents": 2 * MILLION + 1,
            }
            assert "held by pending transfers" in refused.value.message
        assert uow.events == before

    def test_accepting_an_offer_inside_its_listing_promises_nothing_more(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = _brrag(uow, seller, 2 * MILLION)
        listing = _listing(uow, seller, cert, MILLION, MILLION)
        _negotiate(uow, seller, cert, buyer, MILLION, MILLION)  # the rest of the balance
        offer = _offer(uow, buyer, listing, MILLION, 90 * MILLION // 100)
        with uow:
            accepted = accept_offer(uow, participant(seller), offer, RULES)
            uow.commit()
        assert accepted["transfer"]["status"] == "pending_approval"

    def test_the_buyers_confirmation_checks_the_balance_again_after_a_recapture(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = _brrag(uow, seller, 2 * MILLION)
        first = _negotiate(uow, seller, cert, buyer, MILLION, MILLION)
        second = _negotiate(uow, seller, cert, buyer, MILLION, MILLION)
        with uow:
            confirm_transfer(uow, participant(buyer), first, RULES)
            approve_transfer(uow, AUTHORITY_USER, first, RULES)
            assess_recapture(uow, AUTHORITY_USER, NewRecapture(seller, MILLION // 2, "r", cert))
            uow.commit()
        before = list(uow.events)
        with uow, pytest.raises(InsufficientBalanceError) as refused:
            confirm_transfer(uow, participant(buyer), second, RULES)
        failed = [c["rule"] for c in refused.value.details["checks"] if not c["passed"]]  # type: ignore[attr-defined]
        assert failed == ["balance"]
        assert uow.events == before
        assert uow.transfers.get(second)["status"] == "awaiting_buyer"  # type: ignore[index]

    def test_approval_checks_the_balance_again_after_a_recapture(self, uow: FakeUnitOfWork) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = _brrag(uow, seller)
        pending = []
        for _ in range(2):
            part = 40 * MILLION // 100
            transfer = _negotiate(uow, seller, cert, buyer, part, part)
            with uow:
                confirm_transfer(uow, participant(buyer), transfer, RULES)
                uow.commit()
            pending.append(transfer)
        with uow:
            recapture = NewRecapture(seller, 30 * MILLION // 100, "Jobs not retained", cert)
            assess_recapture(uow, AUTHORITY_USER, recapture)
            approve_transfer(uow, AUTHORITY_USER, pending[0], RULES)
            uow.commit()
        before = list(uow.events)
        with uow, pytest.raises(InsufficientBalanceError):
            approve_transfer(uow, AUTHORITY_USER, pending[1], RULES)
        assert uow.events == before
        with uow:
            rejected = reject_transfer(uow, AUTHORITY_USER, pending[1], "No longer covered.")
            uow.commit()
        assert rejected["status"] == "rejected"
