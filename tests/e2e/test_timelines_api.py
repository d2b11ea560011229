"""Every deal has a timeline: who did what when, a rejection's reason, the next step; the
buyer's and seller's deal lists show what each deal came to."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_notifications_api import sale
from tests.e2e.test_trading_api import M, Market


def test_a_rejected_transfer_shows_who_did_what_and_why(client: Any) -> None:
    m = Market(client)
    deal = sale(m, reject="Consideration not received.")
    t = m.get(f"/api/v1/transfers/{deal['transfer']['id']}", m.seller_h).json
    assert [(s["status"], s["by"]) for s in t["timeline"]] == [
        ("pending_approval", "Seller Co"),
        ("rejected", "the Authority"),
    ]
    assert t["timeline"][1]["reason"] == "Consideration not received."
    assert "reason" not in t["timeline"][0]
    assert t["timeline"][0]["at"] <= t["timeline"][1]["at"]
    assert t["next_step"].startswith("None: the transfer is closed")
    assert len(t["reference"]) == 32


def test_the_offer_shows_its_transfers_outcome_not_accepted_forever(client: Any) -> None:
    m = Market(client)
    deal = sale(m)
    o = m.get(f"/api/v1/offers/{deal['offer']['id']}", m.buyer_h).json
    assert [s["status"] for s in o["timeline"]] == [
        "open",
        "accepted",
        "pending_approval",
        "approved",
    ]
    assert [s["by"] for s in o["timeline"]] == [
        "Buyer Co",
        "Seller Co",
        "Seller Co",
        "the Authority",
    ]
    assert o["status"] == "accepted" and o["deal_status"] == "approved"
    stranger = Market(client)
    assert m.get(f"/api/v1/offers/{deal['offer']['id']}", stranger.buyer_h).status_code == 404


def test_buyers_and_sellers_list_their_deals_with_each_status(client: Any) -> None:
    m = Market(client)
    sale(m, reject="Affiliated parties.")
    second = m.issue(program="BRRAG", face_cents=3 * M, fiscal_year=2014, credit_year=2013)
    listing = m.list_(second["id"], M, 90 * 10**6)
    m.offer(listing["id"], M, 80 * 10**6)
    bought = m.get("/api/v1/deals?side=buyer", m.buyer_h).json
    assert [(d["status"], d["reason"]) for d in bought["items"]] == [
        ("open", None),
        ("rejected", "Affiliated parties."),
    ]
    sold = m.get("/api/v1/deals?side=seller", m.seller_h).json
    assert [d["status"] for d in sold["items"]] == ["open", "rejected"]
    assert sold["items"][0]["next_step"] == "The seller accepts, counters or declines the offer."
    assert m.get("/api/v1/deals?side=seller", m.buyer_h).json["items"] == []


def test_tech_application_and_credit_application_have_timelines(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=5 * M, fiscal_year=2014, credit_year=2013)
    deal_cert = m.list_(cert["id"], 2 * M, 180 * 10**6)
    offer = m.offer(deal_cert["id"], 2 * M, 160 * 10**6).json
    t = m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h).json["transfer"]
    approved = m.post(f"/api/v1/transfers/{t['id']}/approve", m.auth).json
    r = m.post(
        "/api/v1/credit-applications",
        m.buyer_h,
        {
            "certificate_id": approved["buyer_certificate_id"],
            "tax_type": "CBT",
            "tax_year": 2014,
            "liability_cents": 10 * M,
            "amount_cents": M,
        },
    )
    assert r.status_code == 201, r.json
    ca = m.get(f"/api/v1/credit-applications/{r.json['id']}", m.buyer_h).json
    assert [(s["status"], s["by"]) for s in ca["timeline"]] == [("applied", "Buyer Co")]
    assert m.get(f"/api/v1/credit-applications/{r.json['id']}", m.seller_h).status_code == 404


def test_public_status_by_reference_shows_no_names_or_amounts(client: Any) -> None:
    m = Market(client)
    deal = sale(m)
    ref = m.get(f"/api/v1/transfers/{deal['transfer']['id']}", m.buyer_h).json["reference"]
    r = client.get(f"/api/v1/public/status/{ref}")  # no token
    assert r.status_code == 200, r.json
    assert r.json["status"] == "approved" and r.json["kind"] == "transfer"
    assert [s["status"] for s in r.json["steps"]] == ["pending_approval", "approved"]
    text = r.get_data(as_text=True)
    for secret in ("Seller Co", "Buyer Co", m.seller["id"], deal["transfer"]["id"], "cents"):
        assert secret not in text
    missing = client.get("/api/v1/public/status/" + "f" * 32)
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"
