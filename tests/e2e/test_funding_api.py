"""The closing record (PRODUCT.md 8.3): the buyer's payment, the seller's receipt, an
approval that can require it, and the refund a rejection leaves owed; on both databases."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from typing import Any

import pytest

from market.domain.rulesets import A1178
from market.services.kernel import clock
from tests.e2e.test_trading_api import Market
from tests.helpers import create_party, events, headers_for, replay_equals_live_and_verifies

M = 100_000_000


@pytest.fixture(autouse=True)
def business_day(app: Any) -> Iterator[None]:
    clock.configure(date(2014, 9, 1))  # after create_app, which sets it from MARKET_TODAY
    yield
    clock.configure(None)


class Deal(Market):
    def __init__(self, client: Any) -> None:
        super().__init__(client)
        cert = self.issue(program="BRRAG", face_cents=5 * M, fiscal_year=2014)
        r = self.negotiate(cert["id"], M, 80 * 10**6)
        assert r.status_code == 201, r.json
        self.confirm(r.json)  # the buyer consents (PRODUCT.md 8.2); now the Authority decides
        self.transfer_id = r.json["id"]

    def pay(self, amount: int = 80 * 10**6, on: str = "2014-08-30", headers: Any = None) -> Any:
        return self.post(
            f"/api/v1/transfers/{self.transfer_id}/payment",
            headers or self.buyer_h,
            {"reference": "FEDWIRE 20140830-0042", "amount_cents": amount, "paid_on": on},
        )

    def confirm_receipt(self, headers: Any = None, **body: Any) -> Any:
        return self.post(
            f"/api/v1/transfers/{self.transfer_id}/payment/confirm", headers or self.seller_h, body
        )

    def funding(self, headers: Any = None) -> Any:
        return self.get(f"/api/v1/transfers/{self.transfer_id}/funding", headers)


def test_the_buyer_pays_and_the_seller_confirms_receipt(client: Any) -> None:
    d = Deal(client)
    assert d.funding().json["status"] == "unpaid"
    paid = d.pay()
    assert paid.status_code == 201, paid.json
    assert paid.json["status"] == "paid" and paid.json["funded"] is False
    assert paid.json["payment"] == {
        "reference": "FEDWIRE 20140830-0042",
        "amount_cents": 80 * 10**6,
        "paid_on": "2014-08-30",
        "confirmed_on": None,
    }
    confirmed = d.confirm_receipt(received_on="2014-08-31")
    assert confirmed.status_code == 200, confirmed.json
    assert confirmed.json["status"] == "received" and confirmed.json["funded"] is True
    assert confirmed.json["outstanding_cents"] == 0
    assert d.funding(d.seller_h).json == confirmed.json
    replay_equals_live_and_verifies(d.engine)


def test_a_fully_funded_transfer_is_approved_under_that_ruleset(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "market.api.trading.ruleset", lambda: replace(A1178, approval_requires_funding=True)
    )
    d = Deal(client)
    d.pay()
    d.confirm_receipt()
    approved = d.post(f"/api/v1/transfers/{d.transfer_id}/approve", d.auth)
    assert approved.status_code == 200, approved.json


def test_a_rejection_after_payment_records_the_refund_owed(client: Any) -> None:
    d = Deal(client)
    d.pay()
    rejected = d.post(f"/api/v1/transfers/{d.transfer_id}/reject", d.auth, {"reason": "No HQ"})
    assert rejected.status_code == 200, rejected.json
    f = d.funding(d.buyer_h).json
    assert f["transfer_status"] == "rejected" and f["refund_owed_cents"] == 80 * 10**6
    assert d.pay().status_code == 409  # nothing more is paid on a rejected transfer
    replay_equals_live_and_verifies(d.engine)


def test_each_party_does_only_its_own_step_and_bad_input_writes_nothing(client: Any) -> None:
    d = Deal(client)
    before = events(d.engine)
    assert d.pay(headers=d.seller_h).status_code == 403
    none_yet = d.confirm_receipt()
    assert none_yet.status_code == 409 and none_yet.json["error"]["code"] == "no_payment_recorded"
    future = d.pay(on="2014-09-02")
    assert future.status_code == 422 and future.json["error"]["code"] == "invalid_request"
    assert d.pay(amount=0).status_code == 400
    assert events(d.engine) == before
    d.pay()
    again = d.pay()
    assert again.status_code == 409 and again.json["error"]["code"] == "payment_already_recorded"
    assert d.confirm_receipt(headers=d.buyer_h).status_code == 403
    assert d.confirm_receipt(received_on="2014-08-01").status_code == 422  # before the payment
    d.confirm_receipt()
    assert d.confirm_receipt().json["error"]["code"] == "receipt_already_confirmed"
    stranger = create_party(client, d.auth, name="Stranger")
    # Another party's transfer answers as a missing one would (no existence oracle,
    # docs/SECURITY.md); the auditor still reads it.
    hidden = d.funding(headers_for(client, d.engine, "participant", stranger["id"]))
    assert hidden.status_code == 404 and hidden.json["error"]["code"] == "not_found"
    missing = d.get("/api/v1/transfers/trf_nope/funding", d.buyer_h)
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"
    assert d.funding(headers_for(client, d.engine, "auditor")).status_code == 200


def test_the_closing_page_takes_the_payment_and_the_receipt(client: Any, app: Any) -> None:
    from tests.e2e.test_pages_foundation import _csrf, sign_in

    d = Deal(client)
    sign_in(client, app, "participant", d.buyer["id"])
    page = client.get("/closing").data
    assert b"Record payment" in page and b"Confirm receipt" not in page
    r = client.post(
        f"/closing/{d.transfer_id}/payment",
        data={
            "reference": "W-1",
            "amount": "800,000",
            "paid_on": "2014-08-30",
            "csrf_token": _csrf(page),
        },
    )
    assert r.status_code == 302, r.data
    assert b"Payment of $800,000.00 recorded." in client.get("/closing").data
    bad = client.post(
        f"/closing/{d.transfer_id}/payment",
        data={
            "reference": "W-2",
            "amount": "1",
            "paid_on": "2014-08-30",
            "csrf_token": _csrf(page),
        },
    )
    assert bad.status_code == 409 and b"already recorded" in bad.data
    seller = app.test_client()
    sign_in(seller, app, "participant", d.seller["id"])
    page = seller.get("/closing").data
    assert b"Confirm receipt" in page and b"W-1" in page
    r = seller.post(f"/closing/{d.transfer_id}/receipt", data={"csrf_token": _csrf(page)})
    assert r.status_code == 302, r.data
    assert b"received 2014-09-01" in seller.get("/closing").data
