"""Using a certificate on a return, over the FakeUnitOfWork: the waiver (CMN-4(d)), the
50% ceiling (DMC-6) counting what the ledger already applied that year, the carryover
window (DMC-6, 7 privilege periods) at use and at its close, and pass-through to owners
by income share (PT-5)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError, InsufficientBalanceError, TaxTypeNotAllowedError
from market.domain.programs import Program
from market.domain.rules.activities import SAME_TAXPAYER
from market.services.certificates.carryforwards import expire_carryforwards
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.certificates.pass_through_allocations import pass_through_allocate
from market.services.certificates.returns import NewCreditApplication, apply_to_return
from market.services.kernel.errors import NotFoundError
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

DOLLARS = 100  # cents
FACE = 1_000_000 * DOLLARS


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


def _bought(
    uow: FakeUnitOfWork, buyer: str, amount: int = FACE, program: Program = Program.DM_CBT
) -> tuple[str, str]:
    """A seller's certificate (DM CBT unless told, credit year 2013), `amount` of it sold
    to `buyer`: (the seller's certificate, the buyer's)."""
    seller = world.party(uow, "Seller")
    cert = world.certificate(uow, seller, program, face_cents=FACE)
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
    @pytest.mark.parametrize("program", [Program.DM_CBT, Program.BRRAG])
    def test_the_business_that_waived_its_claim_cannot_use_its_own_certificate(
        self, uow: FakeUnitOfWork, program: Program
    ) -> None:
        seller = world.party(uow, "Seller")
        cert = world.certificate(uow, seller, program)
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            apply_to_return(
                uow,
                participant(seller),
                RULES,
                NewCreditApplication(cert, "CBT", 2014, 100_000 * DOLLARS, 10_000 * DOLLARS),
            )
        assert refused.value.code == "waived_by_seller"
        assert uow.events == before

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

    def test_a_tax_the_credit_does_not_reach_is_refused_writing_nothing(
        self, uow: FakeUnitOfWork
    ) -> None:
        buyer = world.party(uow, "Buyer", tax_types=["CBT", "GIT", "IPT"])
        _, cert = _bought(uow, buyer)
        before = list(uow.events)
        with uow, pytest.raises(TaxTypeNotAllowedError):
            apply_to_return(
                uow,
                participant(buyer),
                RULES,
                NewCreditApplication(cert, "IPT", 2014, 100_000 * DOLLARS, DOLLARS),
            )
        assert uow.events == before

    def test_another_partys_certificate_does_not_exist_for_it(self, uow: FakeUnitOfWork) -> None:
        buyer, other = world.party(uow, "Buyer"), world.party(uow, "Other")
        _, cert = _bought(uow, buyer)
        with uow, pytest.raises(NotFoundError):
            _apply(uow, other, cert, 2014, liability=100_000 * DOLLARS, amount=DOLLARS)

    def test_once_the_rest_expired_nothing_is_left_to_use_in_an_earlier_year(
        self, uow: FakeUnitOfWork
    ) -> None:
        buyer = world.party(uow, "Buyer")
        _, cert = _bought(uow, buyer, FACE // 2)
        with uow:
            expire_carryforwards(uow, AUTHORITY_USER, RULES, 2021)
            uow.commit()
        with uow, pytest.raises(InsufficientBalanceError):
            _apply(uow, buyer, cert, 2019, liability=100_000 * DOLLARS, amount=DOLLARS)

    @pytest.mark.parametrize("entity_type", ["partnership", "llc", "s_corporation"])
    def test_a_pass_through_entity_cannot_use_a_git_credit_itself(
        self, uow: FakeUnitOfWork, entity_type: str
    ) -> None:
        # PT-5, PT-6, DMG-5: it passes the credit through; a CBT return is not touched.
        entity = world.party(uow, "Entity", entity_type=entity_type)
        _, cert = _bought(uow, entity, 200_000 * DOLLARS, Program.DM_GIT)
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            apply_to_return(
                uow,
                participant(entity),
                RULES,
                NewCreditApplication(
                    cert, "GIT", 2014, 50_000 * DOLLARS, 10_000 * DOLLARS, cap40_cents=1
                ),
            )
        assert (refused.value.code, status_of(refused.value)) == ("pass_through_required", 422)
        assert "not allowed a GIT credit directly (PT-5, PT-6)" in refused.value.message
        assert uow.events == before
        used = _apply(uow, entity, cert, 2014, liability=50_000 * DOLLARS, amount=1)
        assert used["applied_cents"] == 1


class TestCreditableActivities:
    """PT-1 / AMB-56: an activity backs one credit, across the entity and its owners."""

    def _chain(self, uow: FakeUnitOfWork) -> tuple[str, str, str, str, str]:
        """(entity, owner, the entity's certificate, the owner's, the entity's second),
        each bought from its own BRRAG award for the same activity job-7; the owner holds
        60% of the entity."""
        seller = world.party(uow, "Seller")
        entity, owner = world.party(uow, "Entity Co"), world.party(uow, "Owner Co")
        world.owns(uow, owner, entity, 6000)
        new = NewCertificate(
            "BRRAG",
            seller,
            FACE,
            2014,
            creditable_activity_ids=["job-7"],
            retained_jobs=FACE // 150_000 + 1,
            nj_operations_since=date(2000, 1, 1),
            cannot_use_before_expiry=True,
        )
        with uow:
            bought = []
            for buyer in (entity, owner, entity):
                award = issue_certificate(uow, AUTHORITY_USER, new, RULES)["id"]
                t = create_transfer(
                    uow,
                    participant(seller),
                    CreateTransfer(award, buyer, FACE // 4, FACE // 4, None),
                    RULES,
                )
                confirm_transfer(uow, participant(buyer), t["id"], RULES)
                bought.append(
                    str(
                        approve_transfer(uow, AUTHORITY_USER, t["id"], RULES)[
                            "buyer_certificate_id"
                        ]
                    )
                )
            uow.commit()
        return entity, owner, bought[0], bought[1], bought[2]

    def test_an_activity_the_owner_used_bars_the_entity_writing_nothing(
        self, uow: FakeUnitOfWork
    ) -> None:
        entity, owner, entity_cert, owner_cert, _ = self._chain(uow)
        _apply(uow, owner, owner_cert, 2014, liability=FACE, amount=FACE // 10)
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            _apply(uow, entity, entity_cert, 2014, liability=FACE, amount=FACE // 10)
        assert refused.value.code == "activity_already_used"
        assert "Owner Co" in refused.value.message and "job-7" in refused.value.message
        assert refused.value.details["scope"] == "entity_and_owners"
        assert uow.events == before

    def test_the_same_certificate_in_a_later_year_is_the_same_credit(
        self, uow: FakeUnitOfWork
    ) -> None:
        _, owner, _, owner_cert, _ = self._chain(uow)
        _apply(uow, owner, owner_cert, 2013, liability=FACE, amount=FACE // 10)
        again = _apply(uow, owner, owner_cert, 2014, liability=FACE, amount=FACE // 10)
        assert again["applied_cents"] == FACE // 10

    def test_under_the_same_taxpayer_reading_only_its_own_uses_count(
        self, uow: FakeUnitOfWork
    ) -> None:
        """AMB-56's alternative reading: the owner's use does not bar the entity; the
        entity's own earlier use of the activity, on another credit, does."""
        entity, owner, entity_cert, owner_cert, second = self._chain(uow)
        rules = replace(RULES, pt1_activity_scope=SAME_TAXPAYER)

        def apply(party: str, cert: str) -> dict[str, Any]:
            new = NewCreditApplication(cert, "CBT", 2014, FACE, FACE // 10)
            return apply_to_return(uow, participant(party), rules, new)

        with uow:
            apply(owner, owner_cert)
            used = apply(entity, entity_cert)
            uow.commit()
        assert used["limits"]["pt1_activity_scope"] == SAME_TAXPAYER
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            apply(entity, second)
        assert refused.value.code == "activity_already_used"
        assert uow.events == before


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
    def test_a_corporation_does_not_pass_its_credit_through(self, uow: FakeUnitOfWork) -> None:
        corp = world.party(uow, "C corp")
        _, cert = _bought(uow, corp, 1_000)
        before = list(uow.events)
        with uow, pytest.raises(DomainError) as refused:
            pass_through_allocate(uow, AUTHORITY_USER, cert, None, RULES)
        assert refused.value.code == "not_a_pass_through_entity"
        assert refused.value.details["entity_type"] == "c_corporation"
        assert uow.events == before

    def test_no_more_than_the_balance_passes_through(self, uow: FakeUnitOfWork) -> None:
        firm = world.party(uow, "Partnership P", entity_type="partnership")
        world.owns(uow, world.party(uow, "Partner A"), firm, 10_000, income_bps=10_000)
        _, cert = _bought(uow, firm, 1_000)
        with uow, pytest.raises(InsufficientBalanceError):
            pass_through_allocate(uow, AUTHORITY_USER, cert, 1_001, RULES)
        with uow, pytest.raises(NotFoundError):  # another party's: as if missing
            pass_through_allocate(uow, participant(world.party(uow, "Other")), cert, None, RULES)

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
