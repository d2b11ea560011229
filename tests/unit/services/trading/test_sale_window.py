"""A credit nobody can use any more is not sold (PRODUCT.md 8.4, BR-11), over the
FakeUnitOfWork: a BRRAG credit of tax period 2013 is usable in 2013 and 2014, and a
buyer's period labelled 2014 may run to the end of 2015; from January 1, 2016 every
trading step is refused `carryforward_expired` and writes nothing, while an exchange the
Authority dates before then is still approved."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest

from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.domain.errors import DomainError
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.trading.listings import create_listing, make_offer
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import accept_offer, confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

M = 100_000_000


@dataclass
class Book:
    uow: FakeUnitOfWork
    seller: str
    buyer: str
    cert: str
    listing: str
    pending: str  # from an accepted offer
    awaiting: str  # negotiated, not confirmed
    confirmed: str  # negotiated and confirmed


def _run(uow: FakeUnitOfWork, step: Callable[[], Any]) -> Any:
    with uow:
        found = step()
        uow.commit()
    return found


@pytest.fixture
def book(market_today: Any) -> Book:
    """Trades in a $4M BRRAG credit of 2013 opened on 2015-12-31, read on 2016-01-01."""
    uow = FakeUnitOfWork()
    seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
    new = NewCertificate(
        "BRRAG",
        seller,
        4 * M,
        2014,
        credit_year=2013,
        retained_jobs=-(-4 * M // 150_000),
        nj_operations_since=date(2000, 1, 1),
        cannot_use_before_expiry=True,
    )
    cert = str(_run(uow, lambda: issue_certificate(uow, AUTHORITY_USER, new, RULES))["id"])
    market_today("2015-12-31")
    s, b = participant(seller), participant(buyer)

    def negotiate(amount: int) -> str:
        command = CreateTransfer(cert, buyer, amount, amount * 9 // 10, None)
        return str(_run(uow, lambda: create_transfer(uow, s, command, RULES))["id"])

    listing = _run(
        uow, lambda: create_listing(uow, s, CreateListing(cert, M, 90 * M // 100), RULES)
    )["id"]
    offer = _run(uow, lambda: make_offer(uow, b, MakeOffer(listing, M, 90 * M // 100), RULES))["id"]
    pending = _run(uow, lambda: accept_offer(uow, s, offer, RULES))["transfer"]["id"]
    awaiting, confirmed = negotiate(M), negotiate(M // 2)
    _run(uow, lambda: confirm_transfer(uow, b, confirmed, RULES))
    market_today("2016-01-01")
    return Book(uow, seller, buyer, cert, listing, pending, awaiting, confirmed)


STEPS: dict[str, Callable[[Book], Any]] = {
    "list": lambda k: create_listing(
        k.uow, participant(k.seller), CreateListing(k.cert, M, M), RULES
    ),
    "offer": lambda k: make_offer(
        k.uow, participant(k.buyer), MakeOffer(k.listing, M // 4, M // 4), RULES
    ),
    "negotiate": lambda k: create_transfer(
        k.uow, participant(k.seller), CreateTransfer(k.cert, k.buyer, M // 4, M // 4, None), RULES
    ),
    "confirm": lambda k: confirm_transfer(k.uow, participant(k.buyer), k.awaiting, RULES),
    "approve an accepted offer": lambda k: approve_transfer(
        k.uow, AUTHORITY_USER, k.pending, RULES
    ),
    "approve a confirmed sale": lambda k: approve_transfer(
        k.uow, AUTHORITY_USER, k.confirmed, RULES
    ),
}


@pytest.mark.parametrize("step", list(STEPS))
def test_from_2016_every_step_is_refused_writing_nothing(book: Book, step: str) -> None:
    before = list(book.uow.events)
    with book.uow, pytest.raises(DomainError) as refused:
        STEPS[step](book)
    error = refused.value
    assert (error.code, status_of(error)) == ("carryforward_expired", 422)
    assert "usable through tax year 2014" in error.message and "BR-11" in error.message
    assert (error.details["usable_until"], error.details["on"]) == ("2015-12-31", "2016-01-01")
    assert book.uow.events == before


def test_an_exchange_dated_while_a_buyer_could_use_it_is_approved(book: Book) -> None:
    approved = _run(
        book.uow,
        lambda: approve_transfer(book.uow, AUTHORITY_USER, book.pending, RULES, date(2015, 12, 30)),
    )
    window = next(c for c in approved["checks"] if c["rule"] == "carryforward_window")
    assert window["passed"] and "until 2015-12-31" in window["message"]
