"""The in-app inbox: every party concerned by a deal's events hears of it, in words and
dollars, through GET /notifications; reading one marks it read for that user only."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import M, Market


def sale(m: Market, *, reject: str | None = None) -> dict[str, Any]:
    cert = m.issue(program="BRRAG", face_cents=5 * M, fiscal_year=2014, credit_year=2013)
    listing = m.list_(cert["id"], 2 * M, 180 * 10**6)
    offer = m.offer(listing["id"], 2 * M, 160 * 10**6).json
    transfer = m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h).json["transfer"]
    if reject:
        r = m.post(f"/api/v1/transfers/{transfer['id']}/reject", m.auth, {"reason": reject})
    else:
        r = m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth)
    assert r.status_code == 200, r.json
    return {"cert": cert, "offer": offer, "transfer": r.json}


def inbox(m: Market, headers: dict[str, str], query: str = "") -> dict[str, Any]:
    r = m.get(f"/api/v1/notifications{query}", headers)
    assert r.status_code == 200, r.json
    return r.json  # type: ignore[no-any-return]


def test_seller_and_buyer_each_hear_of_their_deal_in_words_and_dollars(client: Any) -> None:
    m = Market(client)
    deal = sale(m, reject="The buyer's CBT registration is not on file.")
    seller = inbox(m, m.seller_h)
    buyer = inbox(m, m.buyer_h)
    seller_types = [n["type"] for n in seller["items"]]
    buyer_types = [n["type"] for n in buyer["items"]]
    # Newest first; the seller heard of the offer, the buyer of the acceptance.
    assert seller_types == ["TRANSFER_REJECTED", "OFFER_MADE", "CERT_ISSUED"]
    # One item per step: the acceptance, not also the proposal it made (issue 28).
    assert buyer_types == ["TRANSFER_REJECTED", "OFFER_ACCEPTED"]
    offer_note = seller["items"][1]
    assert offer_note["subject"] == (
        f"New offer: $1,600,000.00 for $2,000,000.00 of {deal['cert']['number']}"
    )
    assert "Buyer Co offers $1,600,000.00" in offer_note["body"]
    assert offer_note["link"] == f"/deals/offers/{deal['offer']['id']}"
    rejected = buyer["items"][0]
    assert "Reason: The buyer's CBT registration is not on file." in rejected["body"]
    assert rejected["read_at"] is None and seller["next"] is None


def test_reading_a_notification_marks_it_for_its_user_only(client: Any) -> None:
    m = Market(client)
    sale(m)
    note = inbox(m, m.seller_h)["items"][0]
    assert note["type"] == "TRANSFER_APPROVED"
    assert m.post(f"/api/v1/notifications/{note['id']}/read", m.buyer_h).status_code == 404
    r = m.post(f"/api/v1/notifications/{note['id']}/read", m.seller_h)
    assert r.status_code == 200 and r.json["read_at"]
    again = m.post(f"/api/v1/notifications/{note['id']}/read", m.seller_h)
    assert again.json["read_at"] == r.json["read_at"]
    unread = inbox(m, m.seller_h, "?unread=true")["items"]
    assert note["id"] not in [n["id"] for n in unread] and len(unread) == 2


def test_pages_of_the_inbox_follow_next(client: Any) -> None:
    m = Market(client)
    sale(m)
    first = inbox(m, m.seller_h, "?limit=2")
    assert len(first["items"]) == 2 and first["next"] is not None
    rest = inbox(m, m.seller_h, f"?limit=2&before={first['next']}")
    assert [n["type"] for n in rest["items"]] == ["CERT_ISSUED"] and rest["next"] is None
    assert m.get("/api/v1/notifications?limit=0", m.seller_h).status_code in (400, 422)


def test_the_authority_hears_of_a_transfer_waiting_for_it(client: Any) -> None:
    m = Market(client)
    sale(m)
    types = [n["type"] for n in inbox(m, m.auth)["items"]]
    assert types == ["TRANSFER_PROPOSED"]
