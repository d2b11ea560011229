"""Trading halts over the FakeUnitOfWork (PRODUCT.md 8.3): a recapture or invalidity
notice halts a certificate and its whole lineage until the last notice on it is lifted;
every trading step in a halted certificate is refused `trading_halted` and writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from market.domain.commands.trading import CreateListing, CreateTransfer, MakeOffer
from market.domain.errors import DomainError
from market.domain.programs import Program
from market.services.certificates.halts import issue_notice, lift_notice
from market.services.trading.listings import create_listing, make_offer
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import accept_offer, confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

M = 100_000_000  # $1,000,000 in cents
PRICE = 80 * M // 100


@dataclass
class Lineage:
    """A $10M BRRAG award with one sale approved (the buyer's child certificate), an open
    listing with an open offer, a transfer the buyer confirmed (pending approval) and one
    awaiting the buyer."""

    seller: str
    buyer: str
    award: str
    child: str
    listing: str
    offer: str
    pending: str
    awaiting: str


def _run(uow: FakeUnitOfWork, step: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    with uow:
        found = step()
        uow.commit()
    return found


def _negotiate(uow: FakeUnitOfWork, seller: str, cert: str, buyer: str) -> str:
    command = CreateTransfer(cert, buyer, M, PRICE, None)
    return str(_run(uow, lambda: create_transfer(uow, participant(seller), command, RULES))["id"])


def _confirm(uow: FakeUnitOfWork, buyer: str, transfer: str) -> None:
    _run(uow, lambda: confirm_transfer(uow, participant(buyer), transfer, RULES))


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


@pytest.fixture
def lineage(uow: FakeUnitOfWork) -> Lineage:
    seller, buyer = world.party(uow, "Seller"), world.party(uow, "Buyer")
    award = world.certificate(uow, seller, Program.BRRAG, face_cents=10 * M)
    first = _negotiate(uow, seller, award, buyer)
    _confirm(uow, buyer, first)
    child = _run(uow, lambda: approve_transfer(uow, AUTHORITY_USER, first, RULES))
    listing = _run(
        uow,
        lambda: create_listing(
            uow, participant(seller), CreateListing(award, 2 * M, 2 * PRICE), RULES
        ),
    )
    offer = _run(
        uow, lambda: make_offer(uow, participant(buyer), MakeOffer(listing["id"], M, PRICE), RULES)
    )
    pending = _negotiate(uow, seller, award, buyer)
    _confirm(uow, buyer, pending)
    awaiting = _negotiate(uow, seller, award, buyer)
    return Lineage(
        seller,
        buyer,
        award,
        str(child["buyer_certificate_id"]),
        str(listing["id"]),
        str(offer["id"]),
        pending,
        awaiting,
    )


def _notice(uow: FakeUnitOfWork, cert: str, kind: str = "recapture") -> dict[str, Any]:
    return _run(uow, lambda: issue_notice(uow, AUTHORITY_USER, cert, kind, "HQ moved away"))


def _lift(uow: FakeUnitOfWork, cert: str, notice: str) -> dict[str, Any]:
    return _run(uow, lambda: lift_notice(uow, AUTHORITY_USER, cert, notice, "Review closed"))


# Listing a halted certificate and approving a sale in one are refused in
# trading/test_listings.py and trading/test_transfers.py.
STEPS: dict[str, Callable[[FakeUnitOfWork, Lineage], Any]] = {
    "offer on its listing": lambda u, h: make_offer(
        u, participant(h.buyer), MakeOffer(h.listing, M, PRICE), RULES
    ),
    "negotiate a sale": lambda u, h: create_transfer(
        u, participant(h.seller), CreateTransfer(h.award, h.buyer, M, PRICE, None), RULES
    ),
    "accept the open offer": lambda u, h: accept_offer(u, participant(h.seller), h.offer, RULES),
    "confirm as the buyer": lambda u, h: confirm_transfer(
        u, participant(h.buyer), h.awaiting, RULES
    ),
}


class TestANoticeHaltsTheLineage:
    @pytest.mark.parametrize("step", list(STEPS))
    def test_each_other_trading_step_in_the_award_is_refused_writing_nothing(
        self, uow: FakeUnitOfWork, lineage: Lineage, step: str
    ) -> None:
        _notice(uow, lineage.award)
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            STEPS[step](uow, lineage)
        assert (refused.value.code, status_of(refused.value)) == ("trading_halted", 422)
        assert uow.events == before

    def test_the_notice_halts_the_child_and_suspends_the_open_listing(
        self, uow: FakeUnitOfWork, lineage: Lineage
    ) -> None:
        notice = _notice(uow, lineage.award)
        assert set(notice["halted_certificate_ids"]) == {lineage.award, lineage.child}
        assert notice["suspended_listing_ids"] == [lineage.listing]
        with uow, pytest.raises(DomainError) as refused:
            create_transfer(
                uow,
                participant(lineage.buyer),
                CreateTransfer(lineage.child, lineage.seller, M, PRICE, None),
                RULES,
            )
        assert refused.value.code == "trading_halted"

    def test_lifting_the_notice_lets_the_pending_sale_be_approved(
        self, uow: FakeUnitOfWork, lineage: Lineage
    ) -> None:
        notice = _notice(uow, lineage.award)
        lifted = _lift(uow, lineage.award, notice["id"])
        assert lifted["resumed_listing_ids"] == [lineage.listing]
        approved = _run(uow, lambda: approve_transfer(uow, AUTHORITY_USER, lineage.pending, RULES))
        assert approved["status"] == "approved"


class TestANoticeOnAChild:
    def test_it_halts_the_child_and_not_its_parent(
        self, uow: FakeUnitOfWork, lineage: Lineage
    ) -> None:
        notice = _notice(uow, lineage.child, "invalidity")
        assert notice["halted_certificate_ids"] == [lineage.child]
        approved = _run(uow, lambda: approve_transfer(uow, AUTHORITY_USER, lineage.pending, RULES))
        assert approved["status"] == "approved"


class TestTwoNotices:
    def test_lifting_one_of_two_keeps_the_halt(self, uow: FakeUnitOfWork, lineage: Lineage) -> None:
        first = _notice(uow, lineage.award)
        second = _notice(uow, lineage.award, "invalidity")
        assert second["suspended_listing_ids"] == []  # the first suspended it already
        assert _lift(uow, lineage.award, first["id"])["resumed_listing_ids"] == []
        with uow, pytest.raises(DomainError) as refused:
            approve_transfer(uow, AUTHORITY_USER, lineage.pending, RULES)
        assert refused.value.code == "trading_halted"
        assert _lift(uow, lineage.award, second["id"])["resumed_listing_ids"] == [lineage.listing]
