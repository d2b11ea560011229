"""Issue 14 item 10 over the API, on SQLite and PostgreSQL: a listing cannot ask below
the floor for its amount, and a certificate's open listings plus its pending transfers
never exceed its usable balance."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market
from tests.helpers import events

M = 100_000_000


def test_a_listing_asking_below_the_floor_is_refused(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    before = events(m.engine)
    r = m.post(
        "/api/v1/listings",
        m.seller_h,
        {"certificate_id": cert["id"], "amount_cents": M, "ask_cents": 74_999_999},
    )
    assert r.status_code == 422, r.json
    error = r.json["error"]
    assert error["code"] == "below_minimum_consideration"
    assert error["message"].startswith("The ask is below the floor, so no buyer could pay it")
    assert "BRRAG requires at least 75%" in error["message"] and "CMN-5" in error["message"]
    assert error["details"]["floor_cents"] == 75_000_000
    assert events(m.engine) == before
    assert m.list_(cert["id"], M, 75_000_000)["floor_bps"] == 7500  # exactly the floor


def test_listings_and_pending_transfers_never_promise_more_than_the_balance(
    client: Any,
) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    listing = m.list_(cert["id"], M, M)
    m.negotiate(cert["id"], M // 2, M // 2)  # awaiting the buyer: it counts
    before = events(m.engine)
    for refused in (
        m.post(
            "/api/v1/listings",
            m.seller_h,
            {"certificate_id": cert["id"], "amount_cents": M // 2 + 1, "ask_cents": M},
        ),
        m.negotiate(cert["id"], M // 2 + 1, M),
    ):
        assert refused.status_code == 422, refused.json
        error = refused.json["error"]
        assert error["code"] == "insufficient_balance"
        assert error["details"] == {
            "balance_cents": 2 * M,
            "committed_cents": 3 * M // 2,
            "would_commit_cents": 2 * M + 1,
        }
        assert "already offered in open listings or held by pending transfers" in error["message"]
    assert events(m.engine) == before
    # An accepted offer inside the listing promises nothing more.
    offer = m.offer(listing["id"], M, 90 * M // 100).json
    accepted = m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h)
    assert accepted.status_code == 201, accepted.json
    # Withdrawing the listing frees what it held beyond its pending transfer: nothing here.
    assert m.post(f"/api/v1/listings/{listing['id']}/withdraw", m.seller_h).status_code == 200
    assert m.negotiate(cert["id"], M // 2 + 1, M).status_code == 422
    assert m.negotiate(cert["id"], M // 2, M // 2).status_code == 201
