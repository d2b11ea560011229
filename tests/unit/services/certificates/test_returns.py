"""Using a certificate on a return, over the FakeUnitOfWork: the waiver (CMN-4(d)), the
50% ceiling (DMC-6) counting what the ledger already applied that year, the carryover
window (DMC-6, 7 privilege periods) at use and at its close, and pass-through to owners
by income share (PT-5)."""

from __future__ import annotations

from typing import Any

import pytest

from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.services.certificates.carryforwards import expire_carryforwards
from market.services.certificates.pass_through_allocations import pass_through_allocate
from market.services.certificates.returns import NewCreditApplication, apply_to_return
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import confirm_transfer, create_transfer
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

DOLLARS = 100  # cents
FACE = 1_000_000 * DOLLARS


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def _bought(uow: FakeUnitOfWork, buyer: str, amount: int = FACE) -> tuple[str, str]:
    """A seller's DM CBT certificate (credit year 2013), `amount` of it sold to `buyer`:
    (the seller's certificate, the buyer's)."""
    seller = world.party(uow, "Seller")
    cert = world.certificate(uow, seller, face_cents=FACE)
    with uow:
        t = create_transfer(
            uow,
            participant(seller),
            CreateTransfer(cert, buyer, amount, amount * 3 // 4, None),
            RULES,
        )
        confirm_transfer(uow, participant(buyer), t["id"], RULES)
        approved = approve_transfer(uow, AUTHORITY_USER, t["id"], RULES)
        uow.commit()
    return cert, str(approved["buyer_certificate_id"])


def _apply(
    uow: FakeUnitOfWork, holder: str, cert: str, year: int, *, liability: int, amount: int
) -> dict[str, Any]:
    new = NewCreditApplication(cert, "CBT", year, liability, amount)
    with uow:
        found = apply_to_return(uow, participant(holder), RULES, new)
        uow.commit()
    return found


class TestApplyToReturn:
    def test_the_business_that_waived_its_claim_cannot_use_its_own_certificate(
        self, uow: FakeUnitOfWork
    ) -> None:
        seller = world.party(uow, "Seller")
        cert = world.certificate(uow, seller)
        with uow, pytest.raises(DomainError) as refused:
            apply_to_return(
                uow,
                participant(seller),
                RULES,
                NewCreditApplication(cert, "CBT", 2014, 100_000 * DOLLARS, 10_000 * DOLLARS),
            )
        assert refused.value.code == "waived_by_seller"

    def test_half_the_liability_binds_and_counts_what_was_applied_before(
        self, uow: FakeUnitOfWork
    ) -> None:
        buyer = world.party(uow, "Buyer")
        _, cert = _bought(uow, buyer)
        first = _apply(uow, buyer, cert, 2014, liability=100_000 * DOLLARS, amount=40_000 * DOLLARS)
        assert first["applied_cents"] == 40_000 * DOLLARS
        second = _apply(
            uow, buyer, cert, 2014, liability=100_000 * DOLLARS, amount=40_000 * DOLLARS
        )
        # DMC-6: 50% of $100,000 this year, $40,000 of it used already.
        assert second["applied_cents"] == 10_000 * DOLLARS
        assert second["limits"]["ledger_other_credits_cents"] == 40_000 * DOLLARS
        held = uow.certificates.get(cert)
        assert held is not None and held["balance_cents"] == FACE - 50_000 * DOLLARS

    def test_a_use_after_the_carryover_window_is_refused(self, uow: FakeUnitOfWork) -> None:
        buyer = world.party(uow, "Buyer")
        _, cert = _bought(uow, buyer)
        with uow, pytest.raises(DomainError) as refused:
            _apply(uow, buyer, cert, 2021, liability=100_000 * DOLLARS, amount=DOLLARS)
        assert refused.value.code == "carryforward_expired"
        assert refused.value.details["carryover_last_year"] == 2020  # 2013 + 7


class TestExpireCarryforwards:
    def test_what_is_left_expires_once_its_window_has_closed(self, uow: FakeUnitOfWork) -> None:
        buyer = world.party(uow, "Buyer")
        seller_cert, cert = _bought(uow, buyer, FACE // 2)
        with uow:
            assert expire_carryforwards(uow, AUTHORITY_USER, RULES, 2020) == []
            expired = expire_carryforwards(uow, AUTHORITY_USER, RULES, 2021)
            uow.commit()
        # Only the buyer's certificate: the seller's original is not a held certificate.
        assert [(e["certificate_id"], e["amount_cents"]) for e in expired] == [(cert, FACE // 2)]
        held = uow.certificates.get(cert)
        assert held is not None and (held["balance_cents"], held["status"]) == (0, "exhausted")
        assert uow.certificates.get(seller_cert)["balance_cents"] == FACE // 2  # type: ignore[index]


class TestPassThrough:
    def test_a_partnership_passes_its_credit_to_owners_by_income_share(
        self, uow: FakeUnitOfWork
    ) -> None:
        # RULES.md 5.4: $200,000 to partners of 50%, 30% and 20%.
        firm = world.party(uow, "Partnership P", entity_type="partnership")
        partners = [world.party(uow, f"Partner {n}") for n in "ABC"]
        for partner, bps in zip(partners, (5000, 3000, 2000), strict=True):
            world.owns(uow, partner, firm, bps, income_bps=bps)
        _, cert = _bought(uow, firm, 200_000 * DOLLARS)
        with uow:
            done = pass_through_allocate(uow, participant(firm), cert, None, RULES)
            uow.commit()
        split = {a["party_id"]: a["amount_cents"] for a in done["allocations"]}
        assert split == dict(
            zip(partners, (100_000 * DOLLARS, 60_000 * DOLLARS, 40_000 * DOLLARS), strict=True)
        )
        assert done["basis"] == "income_share"
        owned = [uow.certificates.get(a["certificate_id"]) for a in done["allocations"]]
        assert all(c is not None and c["origin"] == "pass_through" for c in owned)
