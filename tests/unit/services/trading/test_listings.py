"""Listing and offering, run over the FakeUnitOfWork: the floor (CMN-5), the usable
balance, what the balance is already promised to (no double spend), the TECH
affiliation bar (TB-20) and trading halts (PRODUCT.md 8.3), each in memory."""

from __future__ import annotations

import pytest

from market.domain.commands.trading import CreateListing, MakeOffer
from market.domain.errors import (
    AffiliatedPartiesError,
    BelowMinimumConsiderationError,
    DomainError,
    InsufficientBalanceError,
)
from market.domain.programs import Program
from market.services.certificates import halts
from market.services.trading.listings import create_listing, make_offer, withdraw_listing
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import RULES, participant

DOLLARS = 100  # cents


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def _listing(uow: FakeUnitOfWork, seller: str, cert: str, amount: int, ask: int) -> str:
    with uow:
        found = create_listing(uow, participant(seller), CreateListing(cert, amount, ask), RULES)
        uow.commit()
    return str(found["id"])


class TestCreateListing:
    def test_a_listing_of_part_of_the_balance_is_open_with_all_of_it_available(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller = world.party(uow, "Seller")
        cert = world.certificate(uow, seller)
        with uow:
            listing = create_listing(
                uow,
                participant(seller),
                CreateListing(cert, 400_000 * DOLLARS, 300_000 * DOLLARS),
                RULES,
            )
            uow.commit()
        assert listing["status"] == "open"
        assert listing["available_cents"] == 400_000 * DOLLARS
        assert uow.types()[-1] == "LISTING_CREATED"

    def test_an_ask_below_75_percent_is_refused_and_nothing_is_written(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller = world.party(uow, "Seller")
        cert = world.certificate(uow, seller)
        before = len(uow.events)
        with uow, pytest.raises(BelowMinimumConsiderationError):
            create_listing(
                uow,
                participant(seller),
                CreateListing(cert, 400_000 * DOLLARS, 299_999 * DOLLARS),
                RULES,
            )
        assert len(uow.events) == before

    def test_a_listing_over_the_usable_balance_is_refused(self, uow: FakeUnitOfWork) -> None:
        seller = world.party(uow, "Seller")
        cert = world.certificate(uow, seller, face_cents=1_000_000 * DOLLARS)
        with uow, pytest.raises(InsufficientBalanceError) as refused:
            create_listing(
                uow,
                participant(seller),
                CreateListing(cert, 1_000_001 * DOLLARS, 800_000 * DOLLARS),
                RULES,
            )
        assert refused.value.details["balance_cents"] == 1_000_000 * DOLLARS

    def test_the_same_cents_cannot_be_listed_twice(self, uow: FakeUnitOfWork) -> None:
        seller = world.party(uow, "Seller")
        cert = world.certificate(uow, seller, face_cents=1_000_000 * DOLLARS)
        _listing(uow, seller, cert, 700_000 * DOLLARS, 600_000 * DOLLARS)
        with uow, pytest.raises(InsufficientBalanceError):
            create_listing(
                uow,
                participant(seller),
                CreateListing(cert, 400_000 * DOLLARS, 300_000 * DOLLARS),
                RULES,
            )
        # Once the first listing is withdrawn, its cents are free again.
        first = uow.listings.open_of_certificate(cert)[0].id
        with uow:
            withdraw_listing(uow, participant(seller), first, RULES)
            uow.commit()
        assert _listing(uow, seller, cert, 400_000 * DOLLARS, 300_000 * DOLLARS)

    def test_a_halted_certificate_cannot_be_listed(self, uow: FakeUnitOfWork) -> None:
        seller = world.party(uow, "Seller")
        cert = world.certificate(uow, seller)
        with uow:
            halts.issue_notice(uow, world.AUTHORITY_USER, cert, "recapture", "Recapture review")
            uow.commit()
        with uow, pytest.raises(DomainError) as refused:
            create_listing(
                uow, participant(seller), CreateListing(cert, 100 * DOLLARS, 75 * DOLLARS), RULES
            )
        assert refused.value.code == "trading_halted"


class TestMakeOffer:
    def test_an_offer_below_the_floor_is_refused_with_every_check_in_words(
        self, uow: FakeUnitOfWork
    ) -> None:
        # RULES.md M-4: $400,000 of a $1,000,000 DM CBT certificate; 75% is the floor.
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = world.certificate(uow, seller, face_cents=1_000_000 * DOLLARS)
        listing = _listing(uow, seller, cert, 400_000 * DOLLARS, 300_000 * DOLLARS)
        with uow, pytest.raises(BelowMinimumConsiderationError) as refused:
            make_offer(
                uow,
                participant(buyer),
                MakeOffer(listing, 400_000 * DOLLARS, 299_999 * DOLLARS),
                RULES,
            )
        failed = [c["rule"] for c in refused.value.details["checks"] if not c["passed"]]
        assert failed == ["minimum_consideration"]
        with uow:
            offer = make_offer(
                uow,
                participant(buyer),
                MakeOffer(listing, 400_000 * DOLLARS, 300_000 * DOLLARS),
                RULES,
            )
            uow.commit()
        assert offer["status"] == "open"
        assert offer["price_per_dollar"] == "3/4"

    def test_an_offer_for_more_than_the_listing_has_is_refused(self, uow: FakeUnitOfWork) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        cert = world.certificate(uow, seller)
        listing = _listing(uow, seller, cert, 400_000 * DOLLARS, 300_000 * DOLLARS)
        with uow, pytest.raises(InsufficientBalanceError) as refused:
            make_offer(
                uow,
                participant(buyer),
                MakeOffer(listing, 400_001 * DOLLARS, 300_001 * DOLLARS),
                RULES,
            )
        assert refused.value.details["available_cents"] == 400_000 * DOLLARS

    def test_a_tech_buyer_sharing_a_5_percent_owner_with_the_seller_is_refused(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
        owner = world.party(uow, "Common owner")
        world.owns(uow, owner, seller, 600)
        world.owns(uow, owner, buyer, 600)
        cert = world.certificate(uow, seller, Program.TECH, face_cents=217_400 * DOLLARS)
        listing = _listing(uow, seller, cert, 217_400 * DOLLARS, 173_920 * DOLLARS)
        with uow, pytest.raises(AffiliatedPartiesError) as refused:
            make_offer(
                uow,
                participant(buyer),
                MakeOffer(listing, 217_400 * DOLLARS, 173_920 * DOLLARS),
                RULES,
            )
        assert refused.value.code == "affiliated_parties"
        assert refused.value.details["reasons"]
