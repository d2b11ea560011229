"""Issue 14 item 10 over the API, on SQLite and PostgreSQL: a listing asks at least the
floor for its amount, and a certificate's open listings plus its pending transfers never
exceed its usable balance. The refusals themselves (`below_minimum_consideration`,
`insufficient_balance` with its figures) are held by tests/unit/services/trading/."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market

M = 100_000_000


def test_a_listing_may_ask_exactly_the_floor(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    assert m.list_(cert["id"], M, 75_000_000)["floor_bps"] == 7500  # exactly the floor


def test_listings_and_pending_transfers_never_promise_more_than_the_balance(
    client: Any,
) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    listing = m.list_(cert["id"], M, M)
    m.negotiate(cert["id"], M // 2, M // 2)  # awaiting the buyer: it counts
    # An accepted offer inside the listing promises nothing more.
    offer = m.offer(listing["id"], M, 90 * M // 100).json
    accepted = m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h)
    assert accepted.status_code == 201, accepted.json
    # Withdrawing the listing frees what it held beyond its pending transfer: nothing here.
    assert m.post(f"/api/v1/listings/{listing['id']}/withdraw", m.seller_h).status_code == 200
    assert m.negotiate(cert["id"], M // 2 + 1, M).status_code == 422
    assert m.negotiate(cert["id"], M // 2, M // 2).status_code == 201
