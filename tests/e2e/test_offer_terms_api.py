"""Offers that expire and counter-offers over the API (issue 28 item 3), on SQLite and
PostgreSQL: an offer or counter past its last day reads expired, only the seller counters
and only the buyer answers, and every step is an event the ledger replays into the same
tables. Their refusals (`offer_expired`, a counter below the floor or over the balance)
are held by tests/unit/services/trading/test_counters.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_trading_api import M, Market
from tests.helpers import events, replay_equals_live_and_verifies

pytestmark = pytest.mark.storage


def listed(client: Any) -> tuple[Market, dict[str, Any]]:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=5 * M, fiscal_year=2014, credit_year=2013)
    return m, m.list_(cert["id"], 2 * M, 180 * 10**6)


def offer(m: Market, listing: dict[str, Any], **extra: Any) -> Any:
    body = {"amount_cents": 2 * M, "price_cents": 160 * 10**6} | extra
    return m.post(f"/api/v1/listings/{listing['id']}/offers", m.buyer_h, body)


def test_an_offer_stands_through_its_last_day_then_reads_expired(
    client: Any, market_today: Any
) -> None:
    m, listing = listed(client)
    made = offer(m, listing, expires_on="2014-09-05")
    assert made.status_code == 201, made.json
    assert made.json["expires_on"] == "2014-09-05" and made.json["expired"] is False
    assert made.json["status"] == "open"
    market_today("2014-09-06")
    read = m.get(f"/api/v1/offers/{made.json['id']}", m.seller_h).json
    assert read["status"] == "expired" and read["expired"] is True
    assert read["next_step"].startswith("None: the offer lapsed")
    deal = m.get("/api/v1/deals?side=buyer", m.buyer_h).json["items"][0]
    assert deal["status"] == "expired" and deal["next_step"] == read["next_step"]


def test_on_its_last_day_an_offer_is_still_accepted(client: Any, market_today: Any) -> None:
    m, listing = listed(client)
    made = offer(m, listing, expires_on="2014-09-05").json
    market_today("2014-09-05")
    accepted = m.post(f"/api/v1/offers/{made['id']}/accept", m.seller_h)
    assert accepted.status_code == 201, accepted.json
    assert accepted.json["transfer"]["status"] == "pending_approval"


def test_an_offer_may_not_expire_before_today(client: Any) -> None:
    m, listing = listed(client)
    before = events(m.engine)
    refused = offer(m, listing, expires_on="2014-08-31")
    assert refused.status_code == 422 and "before today" in refused.json["error"]["message"]
    assert events(m.engine) == before


def test_the_seller_counters_and_the_buyer_accepts_the_counter(client: Any) -> None:
    m, listing = listed(client)
    made = offer(m, listing).json
    body = {"amount_cents": 2 * M, "price_cents": 171 * 10**6, "expires_on": "2014-09-10"}
    countered = m.post(f"/api/v1/offers/{made['id']}/counter", m.seller_h, body)
    assert countered.status_code == 200, countered.json
    c = countered.json
    assert c["status"] == "countered" and c["counter_price_cents"] == 171 * 10**6
    assert c["counter_price_per_dollar"] == "171/200" and c["counter_expires_on"] == "2014-09-10"
    assert c["price_cents"] == 160 * 10**6  # the buyer's own offer is kept as it was
    # The seller can no longer accept its buyer's original terms.
    assert m.post(f"/api/v1/offers/{made['id']}/accept", m.seller_h).status_code == 409
    subjects = [n["subject"] for n in m.get("/api/v1/notifications", m.buyer_h).json["items"]]
    assert any(s.startswith("Counter-offer: $1,710,000.00 for $2,000,000.00") for s in subjects)

    accepted = m.post(f"/api/v1/offers/{made['id']}/counter/accept", m.buyer_h)
    assert accepted.status_code == 201, accepted.json
    t = accepted.json["transfer"]
    assert accepted.json["status"] == "accepted" and t["status"] == "pending_approval"
    assert (t["amount_cents"], t["consideration_cents"]) == (2 * M, 171 * 10**6)
    timeline = m.get(f"/api/v1/offers/{made['id']}", m.buyer_h).json["timeline"]
    assert [e["status"] for e in timeline] == ["open", "countered", "accepted", "pending_approval"]
    seller_inbox = m.get("/api/v1/notifications", m.seller_h).json["items"]
    assert any(n["subject"].startswith("Counter-offer accepted") for n in seller_inbox)
    approved = m.post(f"/api/v1/transfers/{t['id']}/approve", m.auth)
    assert approved.status_code == 200, approved.json
    replay_equals_live_and_verifies(m.engine)


def test_only_the_seller_counters_and_only_the_buyer_answers(client: Any) -> None:
    m, listing = listed(client)
    made = offer(m, listing).json
    body = {"amount_cents": M, "price_cents": 90 * 10**6}
    assert m.post(f"/api/v1/offers/{made['id']}/counter", m.buyer_h, body).status_code == 404
    assert m.post(f"/api/v1/offers/{made['id']}/counter", m.seller_h, body).status_code == 200
    answer = m.post(f"/api/v1/offers/{made['id']}/counter/accept", m.seller_h)
    assert answer.status_code == 403
    assert m.post(f"/api/v1/offers/{made['id']}/counter/accept", m.auth).status_code == 403


def test_the_buyer_declines_the_counter_and_it_cannot_be_accepted_after(client: Any) -> None:
    m, listing = listed(client)
    made = offer(m, listing).json
    body = {"amount_cents": M, "price_cents": 90 * 10**6}
    m.post(f"/api/v1/offers/{made['id']}/counter", m.seller_h, body)
    declined = m.post(f"/api/v1/offers/{made['id']}/counter/decline", m.buyer_h)
    assert declined.status_code == 200 and declined.json["status"] == "declined"
    again = m.post(f"/api/v1/offers/{made['id']}/counter/accept", m.buyer_h)
    assert again.status_code == 409
    inbox = m.get("/api/v1/notifications", m.seller_h).json["items"]
    assert any(n["subject"].startswith("Counter-offer declined") for n in inbox)
    replay_equals_live_and_verifies(m.engine)


def test_a_counter_past_its_last_day_reads_expired(client: Any, market_today: Any) -> None:
    m, listing = listed(client)
    made = offer(m, listing).json
    body = {"amount_cents": M, "price_cents": 90 * 10**6, "expires_on": "2014-09-02"}
    assert m.post(f"/api/v1/offers/{made['id']}/counter", m.seller_h, body).status_code == 200
    market_today("2014-09-03")
    assert m.get(f"/api/v1/offers/{made['id']}", m.buyer_h).json["status"] == "expired"
