"""The UTH annual review over the API (UTH-11, UTH-13, UTH-26, AMB-14): reductions and
forfeitures of the unsold tranche, at_risk freezes on transferred tranches, restoration,
refusals that write nothing, and replay/verify after the flow. Runs on SQLite and
PostgreSQL (conftest). Figures: RULES M-1, a $24,000,000 award in $2,400,000 tranches."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from market.domain.commands.certificates import RecordUthReview
from market.domain.rulesets import A1178
from market.services.certificates.uth_reviews import record_review
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from tests.helpers import (
    BRRAG_AWARD,
    UthAward,
    events,
    replay_equals_live_and_verifies,
)

D = 100  # one dollar in cents
M = 100_000_000  # one million dollars in cents
TRANCHE = 2_400_000 * D


class Hub(UthAward):
    """An authority, a seller holding a $24M UTH award (periods 2013-2022) and a buyer."""

    def __init__(self, client: Any) -> None:
        super().__init__(client, buyer_tax_types=("CBT", "GIT"))

    def review(self, period: int, finding: str, cert_id: str | None = None, h: Any = None) -> Any:
        return self.client.post(
            f"/api/v1/certificates/{cert_id or self.award['id']}/reviews",
            json={"tax_period": period, "finding": finding},
            headers=h or self.auth,
        )

    def tranche(self, period: int, cert_id: str | None = None) -> dict[str, Any]:
        return next(t for t in self.cert(cert_id)["tax_periods"] if t["period"] == period)

    def caps(self, fiscal_year: int) -> dict[str, int]:
        r = self.client.get(f"/api/v1/reports/caps?fiscal_year={fiscal_year}", headers=self.auth)
        return {p["program"]: p["used_cents"] for p in r.json["programs"]}

    def apply(self, cert_id: str, amount: int) -> Any:
        return self.client.post(
            "/api/v1/credit-applications",
            json={
                "certificate_id": cert_id,
                "tax_type": "CBT",
                "tax_year": 2014,
                "liability_cents": 100 * M,
                "amount_cents": amount,
            },
            headers=self.buyer_h,
        )


def test_a_reduction_cuts_the_unsold_tranche_by_20_percent_and_releases_the_caps(
    client: Any,
) -> None:
    h = Hub(client)
    assert h.caps(2015)["UTH"] == TRANCHE and h.caps(2015)["UTH_CUMULATIVE"] == 24 * M
    before = events(h.engine)
    r = h.review(2014, "new_positions_below_200")
    assert r.status_code == 201, r.json
    assert events(h.engine) == before + 1
    cut = 480_000 * D  # 20% of $2,400,000
    assert r.json["id"] == h.award["id"]
    assert r.json["review"]["cut_cents"] == cut and r.json["review"]["descendants"] == []
    cert = h.cert()
    assert cert["balance_cents"] == cert["allowed_cents"] == 24 * M - cut
    assert cert["expired_cents"] == cut and cert["face_cents"] == 24 * M
    tranche = h.tranche(2014)
    assert tranche["unsold_cents"] == 1_920_000 * D
    assert (tranche["review"], tranche["finding"], tranche["cut_cents"]) == (
        "reduced",
        "new_positions_below_200",
        cut,
    )
    # UTH-13: period 2014 is charged to FY2015, after the reduction.
    assert h.caps(2015)["UTH"] == 1_920_000 * D
    assert h.caps(2015)["UTH_CUMULATIVE"] == 24 * M - cut
    assert h.caps(2014)["UTH"] == TRANCHE  # other periods untouched
    assert cert["history"][-1]["type"] == "UTH_REVIEW_RECORDED"

    # The same finding again never cuts twice.
    again = h.review(2014, "new_positions_below_200")
    assert again.status_code == 201 and again.json["review"]["cut_cents"] == 0
    assert h.cert()["balance_cents"] == 24 * M - cut
    replay_equals_live_and_verifies(h.engine)


def test_a_forfeiture_takes_the_rest_and_a_facility_sale_takes_later_periods_for_good(
    client: Any,
) -> None:
    h = Hub(client)
    assert h.review(2014, "new_positions_below_200").status_code == 201
    r = h.review(2014, "facility_fte_below_250")
    assert r.status_code == 201, r.json
    assert r.json["review"]["cut_cents"] == 1_920_000 * D
    tranche = h.tranche(2014)
    assert (tranche["review"], tranche["unsold_cents"], tranche["cut_cents"]) == (
        "forfeited",
        0,
        TRANCHE,
    )
    assert h.caps(2015)["UTH"] == 0

    sold = h.review(2020, "facility_sold")
    assert sold.status_code == 201, sold.json
    assert sold.json["review"]["periods"] == [2020, 2021, 2022]
    assert sold.json["review"]["cut_cents"] == 3 * TRANCHE
    cert = h.cert()
    assert cert["balance_cents"] == 24 * M - 4 * TRANCHE
    assert cert["expired_cents"] == 4 * TRANCHE
    assert [h.caps(fy)["UTH"] for fy in (2021, 2022, 2023)] == [0, 0, 0]
    assert h.caps(2021)["UTH_CUMULATIVE"] == 24 * M - 4 * TRANCHE

    before = events(h.engine)
    for period, finding in ((2020, "restored"), (2021, "approved"), (2022, "restored")):
        refused = h.review(period, finding)
        assert refused.status_code == 409, refused.json
        assert refused.json["error"]["code"] == "forfeiture_permanent"
    assert events(h.engine) == before
    # Restoring an ordinary forfeiture is allowed but gives nothing back.
    restored = h.review(2014, "restored")
    assert restored.status_code == 201, restored.json
    assert h.tranche(2014)["review"] == "restored" and h.tranche(2014)["unsold_cents"] == 0
    assert h.cert()["balance_cents"] == 24 * M - 4 * TRANCHE
    replay_equals_live_and_verifies(h.engine)


def test_a_transferred_tranche_is_flagged_at_risk_and_the_buyer_frozen_until_restored(
    client: Any,
) -> None:
    h = Hub(client)
    # The buyer takes all of period 2013 and half of 2014 (earliest tranches first).
    buyer_cert = h.sell(TRANCHE + TRANCHE // 2)
    r = h.review(2013, "statewide_workforce_drop")
    assert r.status_code == 201, r.json
    review = r.json["review"]
    assert review["cut_cents"] == 0  # nothing of 2013 was left unsold
    [effect] = review["descendants"]
    assert effect["certificate_id"] == buyer_cert and effect["frozen"] is True
    assert effect["at_risk_cents"] == TRANCHE and effect["finding_cut_cents"] == TRANCHE
    assert effect["seller_party_id"] == h.seller["id"]
    assert review["assessment"] == {
        "party_id": h.seller["id"],
        "at_risk_cents": TRANCHE,
        "finding_cut_cents": TRANCHE,
        "recapture_created": False,
    }
    frozen = h.tranche(2013, buyer_cert)
    assert frozen["at_risk"] is True and frozen["frozen"] is True
    assert "at_risk" not in h.tranche(2014, buyer_cert)
    assert h.cert(buyer_cert)["balance_cents"] == TRANCHE + TRANCHE // 2  # nothing taken

    # Only the unfrozen 2014 part can be applied, once 2014 is reviewed (UTH-27).
    assert h.review(2014, "approved").status_code == 201
    used = h.apply(buyer_cert, 2 * TRANCHE)
    assert used.status_code == 201, used.json
    assert used.json["applied_cents"] == TRANCHE // 2
    assert h.tranche(2014, buyer_cert)["applied_cents"] == TRANCHE // 2
    assert "applied_cents" not in h.tranche(2013, buyer_cert)

    # Applying the frozen 2013 part is refused (tranche_at_risk): tests/unit/services.

    restored = h.review(2013, "restored")
    assert restored.status_code == 201, restored.json
    assert restored.json["review"]["assessment"] is None
    unfrozen = h.tranche(2013, buyer_cert)
    assert (unfrozen["at_risk"], unfrozen["frozen"], unfrozen["restored"]) == (False, False, True)
    again = h.apply(buyer_cert, TRANCHE)
    assert again.status_code == 201, again.json
    assert again.json["applied_cents"] == TRANCHE
    assert h.cert(buyer_cert)["balance_cents"] == 0
    replay_equals_live_and_verifies(h.engine)


def test_buyer_protected_flags_the_tranche_but_freezes_nothing(client: Any) -> None:
    h = Hub(client)
    buyer_cert = h.sell(TRANCHE)
    protected = replace(A1178, uth_transferred_tranche_effect="buyer_protected")
    result = run(
        h.engine,
        lambda uow: record_review(
            uow, SYSTEM, RecordUthReview(h.award["id"], 2013, "facility_sold"), protected
        ),
    )
    assert result["review"]["transferred_tranche_effect"] == "buyer_protected"
    # The seller-owner forfeits 2013 (sold already) and every later unsold tranche.
    assert result["review"]["cut_cents"] == 9 * TRANCHE
    flagged = h.tranche(2013, buyer_cert)
    assert flagged["at_risk"] is True and flagged["frozen"] is False
    used = h.apply(buyer_cert, TRANCHE)
    assert used.status_code == 201 and used.json["applied_cents"] == TRANCHE
    replay_equals_live_and_verifies(h.engine)


def test_approved_reviews_change_no_cents_and_keep_credit_use_as_before(client: Any) -> None:
    h = Hub(client)
    buyer_cert = h.sell(TRANCHE)
    r = h.review(2013, "approved")
    assert r.status_code == 201, r.json
    assert r.json["review"]["cut_cents"] == 0
    # The buyer's 2013 tranche, bought before the review, is no longer conditional.
    [lifted] = r.json["review"]["descendants"]
    assert (lifted["certificate_id"], lifted["conditional_lifted"]) == (buyer_cert, [2013])
    assert (lifted["frozen"], lifted["at_risk_cents"]) == (False, 0)
    assert h.tranche(2013)["review"] == "approved"
    assert h.cert()["balance_cents"] == 24 * M - TRANCHE
    used = h.apply(buyer_cert, TRANCHE)
    assert used.status_code == 201 and used.json["applied_cents"] == TRANCHE
    # approved then reduced is allowed; reduced then approved must be a restoration.
    assert h.review(2015, "new_positions_below_200").status_code == 201
    refused = h.review(2015, "approved")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "review_conflict"
    replay_equals_live_and_verifies(h.engine)


def test_refusals_write_nothing(client: Any) -> None:
    h = Hub(client)
    buyer_cert = h.sell(TRANCHE)
    brrag = client.post(
        "/api/v1/certificates",
        json={
            "program": "BRRAG",
            **BRRAG_AWARD,
            "holder_party_id": h.seller["id"],
            "face_cents": 5 * M,
            "fiscal_year": 2014,
            "credit_year": 2013,
        },
        headers=h.auth,
    ).json
    before = events(h.engine)
    cases = [
        (h.review(2014, "approved", h=h.seller_h), 403, "forbidden"),
        (h.review(2014, "approved", h=h.buyer_h), 403, "forbidden"),
        (h.review(2014, "approved", cert_id="crt_missing"), 404, "not_found"),
        (h.review(2014, "approved", cert_id=brrag["id"]), 409, "not_an_original_uth_award"),
        (h.review(2013, "approved", cert_id=buyer_cert), 409, "not_an_original_uth_award"),
        (h.review(2030, "approved"), 400, "invalid_review"),
        (h.review(2014, "bad_weather"), 400, "validation_failed"),
        (h.review(2014, "none"), 400, "validation_failed"),
        (h.review(2014, "restored"), 409, "nothing_to_restore"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.json
        assert response.json["error"]["code"] == code
    missing = client.post(
        f"/api/v1/certificates/{h.award['id']}/reviews", json={"tax_period": 2014}, headers=h.auth
    )
    assert missing.status_code == 400
    assert events(h.engine) == before
    assert "2030" in cases[5][0].json["error"]["message"]
