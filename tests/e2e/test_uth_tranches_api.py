"""UTH tranches over the API. UTH-27 / AMB-18: installments not yet reviewed are sold as
`conditional` tranches that the buyer cannot apply until the Authority's annual review
reaches them; the `reviewed_only` reading refuses such sales. UTH-14 / UTH-24: a
pass-through shares the tranches among the owners, flags and all. UTH-10 / AMB-15: each
tranche is usable from its period through its 20 carryforward periods, then expires.
Runs on SQLite and PostgreSQL (conftest). Figures: RULES M-1, a $24,000,000 award in
$2,400,000 tranches for periods 2013-2022. The refusals (`tranche_not_reviewed`,
`tranche_at_risk`, `tranche_not_yet_usable`, `carryforward_expired`, the reviewed_only
reading) are held by tests/unit/services/certificates/test_uth_tranches.py."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from market.domain.rulesets import A1178
from market.services.certificates.carryforwards import expire_carryforwards
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from tests.e2e.test_returns_api import partnership
from tests.e2e.test_uth_reviews_api import TRANCHE, Hub
from tests.helpers import (
    confirm_as_buyer,
    headers_for,
    replay_equals_live_and_verifies,
    sell_and_approve,
)

REVIEWED_ONLY = replace(A1178, name="A1178-reviewed-only", uth_unreviewed_tranches="reviewed_only")


def check(transfer: dict[str, Any], rule: str) -> dict[str, Any]:
    return next(c for c in transfer["checks"] if c["rule"] == rule)


def test_unreviewed_tranches_are_sold_as_conditional_and_usable_once_reviewed(
    client: Any,
) -> None:
    h = Hub(client)
    assert h.review(2013, "approved").status_code == 201
    # A listing of 2.5 tranches: 2013 is reviewed, 2014 and half of 2015 are not.
    listing = client.post(
        "/api/v1/listings",
        json={
            "certificate_id": h.award["id"],
            "amount_cents": 5 * TRANCHE // 2,
            "ask_cents": 5 * TRANCHE // 2 * 3 // 4,  # the floor (a listing asks at least it)
        },
        headers=h.seller_h,
    )
    assert listing.status_code == 201, listing.json
    assert listing.json["conditional_cents"] == 3 * TRANCHE // 2
    proposed = client.post(
        "/api/v1/transfers",
        json={
            "certificate_id": h.award["id"],
            "buyer_party_id": h.buyer["id"],
            "amount_cents": 5 * TRANCHE // 2,
            "consideration_cents": 5 * TRANCHE // 2 * 3 // 4,
        },
        headers=h.seller_h,
    )
    assert proposed.status_code == 201, proposed.json
    confirm_as_buyer(client, proposed.json, h.buyer_h)
    approved = client.post(
        f"/api/v1/transfers/{proposed.json['id']}/approve", json={}, headers=h.auth
    )
    assert approved.status_code == 200, approved.json
    words = check(approved.json, "uth_tranches")
    assert words["passed"] is True
    assert "$3,600,000.00 falls on tax period 2014, 2015" in words["message"]
    buyer_cert = approved.json["buyer_certificate_id"]
    assert [
        (t["period"], t["cents"], t["conditional"]) for t in h.cert(buyer_cert)["tax_periods"]
    ] == [(2013, TRANCHE, False), (2014, TRANCHE, True), (2015, TRANCHE // 2, True)]

    # Only the reviewed 2013 tranche can be applied; then nothing until a review.
    used = h.apply(buyer_cert, 2 * TRANCHE)
    assert used.status_code == 201, used.json
    assert used.json["applied_cents"] == TRANCHE
    assert used.json["limits"]["uth_withheld_cents"] == {"conditional": 3 * TRANCHE // 2}
    # Applying more is refused (tranche_not_reviewed): tests/unit/services/certificates.

    # The 2014 review lifts the condition on that tranche only.
    r = h.review(2014, "approved")
    assert r.status_code == 201, r.json
    [lifted] = r.json["review"]["descendants"]
    assert lifted["conditional_lifted"] == [2014] and lifted["frozen"] is False
    tranche = h.tranche(2014, buyer_cert)
    assert (tranche["conditional"], tranche["review"]) == (False, "approved")
    assert h.tranche(2015, buyer_cert)["conditional"] is True
    used = h.apply(buyer_cert, 2 * TRANCHE)
    assert used.status_code == 201 and used.json["applied_cents"] == TRANCHE

    # A reduction of 2015 lifts the condition but, by default, freezes the buyer's part.
    r = h.review(2015, "new_positions_below_200")
    assert r.status_code == 201, r.json
    [effect] = r.json["review"]["descendants"]
    assert effect["conditional_lifted"] == [2015] and effect["frozen"] is True
    assert effect["at_risk_cents"] == TRANCHE // 2
    frozen = h.tranche(2015, buyer_cert)
    assert (frozen["conditional"], frozen["at_risk"], frozen["frozen"]) == (False, True, True)
    replay_equals_live_and_verifies(h.engine)


def test_a_pass_through_shares_each_tranche_among_the_owners_with_its_flags(
    client: Any,
) -> None:
    h = Hub(client)
    entity, owners = partnership(client, h.auth, {"A": 5000, "B": 3000, "C": 2000})
    assert h.review(2013, "approved").status_code == 201
    # The partnership buys 2013 (reviewed) and 2014 (not): $4,800,000.
    held = sell_and_approve(
        client, h.seller_h, h.auth, h.award["id"], entity["id"], 2 * TRANCHE, 2 * TRANCHE
    )
    ph = headers_for(client, h.engine, "participant", entity["id"])
    r = client.post(
        f"/api/v1/certificates/{held}/pass-through", json={"amount_cents": 3_000_001}, headers=ph
    )
    assert r.status_code == 201, r.json
    cents = {a["party_id"]: a["amount_cents"] for a in r.json["allocations"]}
    certs = {a["party_id"]: a["certificate_id"] for a in r.json["allocations"]}
    # $30,000.01 comes from the earliest tranche (2013) alone, shared 50/30/20.
    assert cents == {owners["A"]: 1_500_001, owners["B"]: 900_000, owners["C"]: 600_000}
    for owner, cert_id in certs.items():
        tranches = h.cert(cert_id)["tax_periods"]
        assert [(t["period"], t["cents"], t["conditional"]) for t in tranches] == [
            (2013, cents[owner], False)
        ]
    entity_2013 = h.tranche(2013, held)
    assert entity_2013["passed_cents"] == 3_000_001

    # The rest crosses into the unreviewed 2014 tranche: each owner gets its share of both.
    r = client.post(f"/api/v1/certificates/{held}/pass-through", json={}, headers=ph)
    assert r.status_code == 201, r.json
    rest = {a["party_id"]: a for a in r.json["allocations"]}
    for owner in owners.values():
        tranches = h.cert(rest[owner]["certificate_id"])["tax_periods"]
        assert sum(t["cents"] for t in tranches) == rest[owner]["amount_cents"]
        assert [t["period"] for t in tranches] == [2013, 2014]
        assert [t["conditional"] for t in tranches] == [False, True]
    by_period = {2013: 0, 2014: 0}
    for a in rest.values():
        for t in h.cert(a["certificate_id"])["tax_periods"]:
            by_period[t["period"]] += t["cents"]
    assert by_period == {2013: TRANCHE - 3_000_001, 2014: TRANCHE}
    assert h.cert(held)["balance_cents"] == 0

    # An owner cannot apply its 2014 part until the review; the review reaches the owners.
    b_cert = rest[owners["B"]]["certificate_id"]
    r = h.review(2014, "approved")
    assert r.status_code == 201, r.json
    lifted = {d["certificate_id"] for d in r.json["review"]["descendants"]}
    assert {a["certificate_id"] for a in rest.values()} <= lifted
    assert all(not t["conditional"] for t in h.cert(b_cert)["tax_periods"])
    replay_equals_live_and_verifies(h.engine)


def test_a_tranche_is_usable_from_its_period_for_20_periods_then_expires(client: Any) -> None:
    h = Hub(client)
    for period in (2013, 2014):
        assert h.review(period, "approved").status_code == 201
    bought = h.sell(2 * TRANCHE)

    def apply(tax_year: int, amount: int) -> Any:
        return client.post(
            "/api/v1/credit-applications",
            json={
                "certificate_id": bought,
                "tax_type": "CBT",
                "tax_year": tax_year,
                "liability_cents": 100 * TRANCHE,
                "amount_cents": amount,
            },
            headers=h.buyer_h,
        )

    # In 2013 only the 2013 installment is usable (AMB-15).
    used = apply(2013, 2 * TRANCHE)
    assert used.status_code == 201, used.json
    assert used.json["applied_cents"] == TRANCHE
    assert used.json["limits"]["uth_withheld_cents"] == {"not_yet_usable": TRANCHE}
    # The 2014 installment carries forward through 2034 (UTH-10) and then expires.
    assert h.tranche(2014, bought)["carryforward_last_period"] == 2034
    assert run(h.engine, lambda uow: expire_carryforwards(uow, SYSTEM, A1178, 2034)) == []
    [expired] = run(h.engine, lambda uow: expire_carryforwards(uow, SYSTEM, A1178, 2035))
    assert (expired["amount_cents"], expired["carryover_last_year"]) == (TRANCHE, 2034)
    cert = h.cert(bought)
    assert (cert["balance_cents"], cert["expired_cents"], cert["applied_cents"]) == (
        0,
        TRANCHE,
        TRANCHE,
    )
    assert h.tranche(2014, bought)["expired_cents"] == TRANCHE
    assert run(h.engine, lambda uow: expire_carryforwards(uow, SYSTEM, A1178, 2040)) == []
    replay_equals_live_and_verifies(h.engine)
