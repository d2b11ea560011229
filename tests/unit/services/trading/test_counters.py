"""Counter-offers and offer expiry, run over the FakeUnitOfWork (issue 28 item 3): the
seller's counter is held to an offer's rules, only the buyer answers it, and an offer or
counter past its last day is refused at acceptance by the clock, whatever its row says."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from market.domain.commands.trading import CounterOffer, CreateListing, MakeOffer
from market.domain.errors import (
    BelowMinimumConsiderationError,
    InsufficientBalanceError,
    InvalidRequestError,
    OfferExpiredError,
)
from market.services.kernel.errors import ConflictError, ForbiddenError
from market.services.trading.counters import accept_counter, counter_offer, decline_counter
from market.services.trading.listings import create_listing, make_offer
from market.services.trading.transfers import accept_offer
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import RULES, participant

K = 100_000  # $1,000 in cents


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def run(uow: FakeUnitOfWork, step: Callable[[], Any]) -> Any:
    with uow:
        found = step()
        uow.commit()
    return found


def offered(uow: FakeUnitOfWork, expires_on: date | None = None) -> tuple[str, str, str]:
    """(seller, buyer, offer id): a $1,000 listing at 90 cents, offered on at 80."""
    seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
    cert = world.certificate(uow, seller)
    listing = run(
        uow,
        lambda: create_listing(
            uow, participant(seller), CreateListing(cert, K, 9 * K // 10), RULES
        ),
    )
    offer = run(
        uow,
        lambda: make_offer(
            uow, participant(buyer), MakeOffer(listing["id"], K, 8 * K // 10, expires_on), RULES
        ),
    )
    return seller, buyer, str(offer["id"])


class TestCounter:
    def test_a_counter_replaces_the_terms_and_the_buyer_accepts_it(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, buyer, offer = offered(uow)
        countered = run(
            uow,
            lambda: counter_offer(
                uow, participant(seller), CounterOffer(offer, K, 85 * K // 100), RULES
            ),
        )
        assert countered["status"] == "countered" and countered["price_cents"] == 8 * K // 10
        accepted = run(uow, lambda: accept_counter(uow, participant(buyer), offer, RULES))
        assert accepted["transfer"]["consideration_cents"] == 85 * K // 100
        assert accepted["transfer"]["status"] == "pending_approval"
        assert uow.types()[-3:-1] == ["OFFER_COUNTERED", "COUNTER_OFFER_ACCEPTED"]

    def test_a_counter_below_the_floor_is_refused_and_writes_nothing(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, _, offer = offered(uow)
        before = len(uow.events)
        with uow, pytest.raises(BelowMinimumConsiderationError):
            counter_offer(uow, participant(seller), CounterOffer(offer, K, 74 * K // 100), RULES)
        assert len(uow.events) == before

    def test_a_counter_for_more_than_the_balance_is_refused(self, uow: FakeUnitOfWork) -> None:
        seller, _, offer = offered(uow)
        before = list(uow.events)
        with uow, pytest.raises(InsufficientBalanceError):
            counter_offer(uow, participant(seller), CounterOffer(offer, 10**8 + 1, 10**8), RULES)
        assert uow.events == before

    def test_only_the_buyer_answers_a_counter_and_only_once(self, uow: FakeUnitOfWork) -> None:
        seller, buyer, offer = offered(uow)
        run(
            uow,
            lambda: counter_offer(
                uow, participant(seller), CounterOffer(offer, K, 9 * K // 10), RULES
            ),
        )
        with uow, pytest.raises(ForbiddenError):
            accept_counter(uow, participant(seller), offer, RULES)
        run(uow, lambda: decline_counter(uow, participant(buyer), offer))
        with uow, pytest.raises(ConflictError):
            accept_counter(uow, participant(buyer), offer, RULES)

    def test_the_seller_cannot_accept_the_original_once_it_countered(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, _, offer = offered(uow)
        run(
            uow,
            lambda: counter_offer(
                uow, participant(seller), CounterOffer(offer, K, 9 * K // 10), RULES
            ),
        )
        with uow, pytest.raises(ConflictError):
            accept_offer(uow, participant(seller), offer, RULES)


class TestExpiry:
    def test_an_offer_past_its_last_day_is_refused_at_acceptance(
        self, uow: FakeUnitOfWork, market_today: Any
    ) -> None:
        seller, _, offer = offered(uow, date(2014, 9, 5))
        market_today("2014-09-06")
        before = list(uow.events)
        with uow, pytest.raises(OfferExpiredError) as refused:
            accept_offer(uow, participant(seller), offer, RULES)
        assert "through 2014-09-05, and today is 2014-09-06" in refused.value.message
        with uow, pytest.raises(OfferExpiredError):
            counter_offer(uow, participant(seller), CounterOffer(offer, K, 9 * K // 10), RULES)
        assert uow.events == before

    def test_a_counter_past_its_last_day_is_refused_at_acceptance(
        self, uow: FakeUnitOfWork, market_today: Any
    ) -> None:
        seller, buyer, offer = offered(uow)
        last = date(2014, 9, 5)
        run(
            uow,
            lambda: counter_offer(
                uow, participant(seller), CounterOffer(offer, K, 9 * K // 10, last), RULES
            ),
        )
        market_today("2014-09-06")
        before = list(uow.events)
        with uow, pytest.raises(OfferExpiredError) as refused:
            accept_counter(uow, participant(buyer), offer, RULES)
        assert "seller's counter-offer expired" in refused.value.message
        assert uow.events == before

    def test_on_its_last_day_an_offer_is_still_accepted(
        self, uow: FakeUnitOfWork, market_today: Any
    ) -> None:
        seller, _, offer = offered(uow, date(2014, 9, 5))
        market_today("2014-09-05")
        accepted = run(uow, lambda: accept_offer(uow, participant(seller), offer, RULES))
        assert accepted["transfer"]["status"] == "pending_approval"

    def test_an_expiry_written_into_the_row_by_hand_is_still_checked(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller, _, offer = offered(uow)  # no expiry in the ledger
        uow.store.tables["offers"][offer]["expires_on"] = "2014-08-31"
        with uow, pytest.raises(OfferExpiredError):
            accept_offer(uow, participant(seller), offer, RULES)

    def test_terms_may_not_be_made_already_expired(self, uow: FakeUnitOfWork) -> None:
        seller, _, offer = offered(uow)
        with uow, pytest.raises(InvalidRequestError):
            counter_offer(
                uow,
                participant(seller),
                CounterOffer(offer, K, 9 * K // 10, date(2014, 8, 31)),
                RULES,
            )
