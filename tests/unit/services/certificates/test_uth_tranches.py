"""UTH tranches on a buyer's return, over the FakeUnitOfWork (RULES M-1: a $24,000,000
award in $2,400,000 installments for the periods 2013-2022, its holder's tax year from
July). UTH-27 / AMB-18: an installment sold before its annual review is `conditional` and
cannot be applied until reviewed, and the `reviewed_only` reading refuses the sale;
UTH-26: a reduction freezes the buyer's part (`tranche_at_risk`); UTH-10 / AMB-15: an
installment is usable from its period through 20 more, then expires. Each refusal
writes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from market.domain.commands.certificates import RecordUthReview
from market.domain.commands.trading import CreateListing, CreateTransfer
from market.domain.errors import DomainError, TrancheNotReviewedError
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.certificates.returns import NewCreditApplication, apply_to_return
from market.services.certificates.uth_reviews import record_review
from market.services.trading.listings import create_listing
from market.services.trading.transfer_decisions import approve_transfer
from market.services.trading.transfers import confirm_transfer, create_transfer
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, RULES, participant

TRANCHE = 2_400_000 * 100
REVIEWED_ONLY = replace(RULES, name="A1178-reviewed-only", uth_unreviewed_tranches="reviewed_only")


def _run(uow: FakeUnitOfWork, step: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    with uow:
        found = step()
        uow.commit()
    return found


class Hub:
    def __init__(self, uow: FakeUnitOfWork) -> None:
        self.uow = uow
        self.seller = world.party(uow, "Hub Owner Co", tax_types=["CBT"])
        self.buyer = world.party(uow, "Buyer Co")
        new = NewCertificate(
            "UTH", self.seller, 10 * TRANCHE, 2014, tax_periods=[2013], tax_period_start_month=7
        )
        self.award = str(
            _run(uow, lambda: issue_certificate(uow, AUTHORITY_USER, new, RULES))["id"]
        )

    def review(self, period: int, finding: str) -> dict[str, Any]:
        return _run(
            self.uow,
            lambda: record_review(
                self.uow, AUTHORITY_USER, RecordUthReview(self.award, period, finding), RULES
            ),
        )

    def sell(self, amount: int) -> str:
        u = self.uow
        command = CreateTransfer(self.award, self.buyer, amount, amount, None)

        def sale() -> dict[str, Any]:
            t = create_transfer(u, participant(self.seller), command, RULES)
            confirm_transfer(u, participant(self.buyer), t["id"], RULES)
            return approve_transfer(u, AUTHORITY_USER, t["id"], RULES)

        return str(_run(u, sale)["buyer_certificate_id"])

    def apply(self, cert: str, amount: int, tax_year: int = 2014) -> dict[str, Any]:
        new = NewCreditApplication(cert, "CBT", tax_year, 100 * TRANCHE, amount)
        return _run(
            self.uow, lambda: apply_to_return(self.uow, participant(self.buyer), RULES, new)
        )

    def refused(self, cert: str, tax_year: int = 2014) -> DomainError:
        before = list(self.uow.events)
        with pytest.raises(DomainError) as refused:
            self.apply(cert, 1, tax_year)
        assert status_of(refused.value) == 422
        assert self.uow.events == before
        return refused.value


@pytest.fixture
def hub() -> Hub:
    return Hub(FakeUnitOfWork())


class TestConditionalTranches:
    def test_only_the_reviewed_tranche_is_applied_then_the_rest_is_refused(self, hub: Hub) -> None:
        hub.review(2013, "approved")
        bought = hub.sell(5 * TRANCHE // 2)  # 2013 reviewed; 2014 and half of 2015 not
        assert hub.apply(bought, 2 * TRANCHE)["applied_cents"] == TRANCHE
        refused = hub.refused(bought)
        assert refused.code == "tranche_not_reviewed"
        assert refused.details["conditional_periods"] == [2014, 2015]
        assert refused.details["conditional_cents"] == 3 * TRANCHE // 2
        assert "2014, 2015" in refused.message

    def test_the_review_lifts_the_condition_on_its_tranche_only(self, hub: Hub) -> None:
        hub.review(2013, "approved")
        bought = hub.sell(5 * TRANCHE // 2)
        hub.apply(bought, TRANCHE)
        hub.review(2014, "approved")
        assert hub.apply(bought, 2 * TRANCHE)["applied_cents"] == TRANCHE

    def test_a_reduction_freezes_the_buyers_part_of_the_tranche(self, hub: Hub) -> None:
        hub.review(2013, "approved")
        bought = hub.sell(2 * TRANCHE)  # 2013 and 2014
        hub.apply(bought, TRANCHE)
        hub.review(2014, "new_positions_below_200")
        refused = hub.refused(bought)
        assert refused.code == "tranche_at_risk" and "2014" in refused.message
        assert refused.details["frozen_cents"] == TRANCHE


class TestReviewedOnlyReading:
    @pytest.mark.parametrize("step", ["negotiate", "list"])
    def test_an_unreviewed_cent_cannot_be_sold(self, hub: Hub, step: str) -> None:
        hub.review(2013, "approved")
        u, seller = hub.uow, participant(hub.seller)
        before = list(u.events)
        with u, pytest.raises(TrancheNotReviewedError) as refused:
            if step == "list":
                create_listing(
                    u, seller, CreateListing(hub.award, TRANCHE + 1, TRANCHE + 1), REVIEWED_ONLY
                )
            else:
                command = CreateTransfer(hub.award, hub.buyer, TRANCHE + 1, TRANCHE + 1, None)
                create_transfer(u, seller, command, REVIEWED_ONLY)
        assert refused.value.details["unreviewed"] == [{"period": 2014, "cents": 1}]
        assert refused.value.details["reviewed_cents"] == TRANCHE
        assert u.events == before

    def test_the_reviewed_tranche_alone_may_be_sold(self, hub: Hub) -> None:
        hub.review(2013, "approved")
        command = CreateTransfer(hub.award, hub.buyer, TRANCHE, TRANCHE, None)
        sold = _run(
            hub.uow,
            lambda: create_transfer(hub.uow, participant(hub.seller), command, REVIEWED_ONLY),
        )
        assert sold["status"] == "awaiting_buyer"


class TestUsableYears:
    def test_a_later_installment_is_not_usable_in_an_earlier_year(self, hub: Hub) -> None:
        for period in (2013, 2014):
            hub.review(period, "approved")
        bought = hub.sell(2 * TRANCHE)
        used = hub.apply(bought, 2 * TRANCHE, tax_year=2013)
        assert used["applied_cents"] == TRANCHE
        refused = hub.refused(bought, tax_year=2013)
        assert refused.code == "tranche_not_yet_usable"
        assert refused.details["not_yet_usable_periods"] == [2014]

    def test_an_installment_expires_after_its_20_carryforward_periods(self, hub: Hub) -> None:
        for period in (2013, 2014):
            hub.review(period, "approved")
        bought = hub.sell(2 * TRANCHE)
        hub.apply(bought, TRANCHE, tax_year=2013)
        assert hub.refused(bought, tax_year=2035).code == "carryforward_expired"
        assert hub.apply(bought, TRANCHE, tax_year=2034)["applied_cents"] == TRANCHE
