"""The buyer consents to a negotiated transfer (PRODUCT.md 8.2), over the API and on the
buyer's page, on SQLite and PostgreSQL: `awaiting_buyer` until the buyer confirms, 409
`awaiting_buyer` for an approval before that, no confirmation for an accepted offer, and
refusals to the seller that do not tell it the buyer's tax types."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_pages_support import browser, confirm_form, make_market, post_form
from tests.e2e.test_trading_api import Market
from tests.helpers import create_party, events, headers_for, replay_equals_live_and_verifies

M = 100_000_000  # one million dollars in cents


def _cert(m: Market) -> dict[str, Any]:
    return m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)


def test_a_negotiated_transfer_waits_for_the_buyer_then_the_authority(client: Any) -> None:
    m = Market(client)
    cert = _cert(m)
    proposed = m.negotiate(cert["id"], M, 80 * M // 100)
    assert proposed.status_code == 201, proposed.json
    t = proposed.json
    assert t["status"] == "awaiting_buyer"
    listed = m.get("/api/v1/transfers?status=awaiting_buyer", m.buyer_h).json["items"]
    assert [x["id"] for x in listed] == [t["id"]]

    before = events(m.engine)
    early = m.post(f"/api/v1/transfers/{t['id']}/approve", m.auth)
    assert early.status_code == 409, early.json
    assert early.json["error"]["code"] == "awaiting_buyer"
    assert "buyer's confirmation" in early.json["error"]["message"]
    assert events(m.engine) == before

    confirmed = m.post(f"/api/v1/transfers/{t['id']}/confirm", m.buyer_h)
    assert confirmed.status_code == 200, confirmed.json
    assert confirmed.json["status"] == "pending_approval"
    assert events(m.engine) == before + 1
    again = m.post(f"/api/v1/transfers/{t['id']}/confirm", m.buyer_h)
    assert again.status_code == 409 and again.json["error"]["code"] == "conflict"

    approved = m.post(f"/api/v1/transfers/{t['id']}/approve", m.auth)
    assert approved.status_code == 200, approved.json
    assert approved.json["status"] == "approved"
    assert m.cert(cert["id"])["balance_cents"] == M
    with m.engine.connect() as conn:
        types = [
            r[0]
            for r in conn.exec_driver_sql(
                "select type from events where stream = ? order by seq"
                if m.engine.dialect.name == "sqlite"
                else "select type from events where stream = %s order by seq",
                (f"transfer-{t['id']}",),
            )
        ]
    assert types == ["TRANSFER_PROPOSED", "TRANSFER_CONFIRMED", "TRANSFER_APPROVED"]
    replay_equals_live_and_verifies(m.engine)


def test_only_the_buyer_may_confirm(client: Any) -> None:
    m = Market(client)
    cert = _cert(m)
    first = m.negotiate(cert["id"], M, M).json
    outsider = create_party(client, m.auth, name="Outsider")
    outsider_h = headers_for(client, m.engine, "participant", outsider["id"])
    before = events(m.engine)
    for h in (m.seller_h, m.auth):
        r = m.post(f"/api/v1/transfers/{first['id']}/confirm", h)
        assert r.status_code == 403, r.json
        assert r.json["error"]["code"] == "forbidden"
    # A party with no part in it is told it does not exist (issue 27: no oracle).
    r = m.post(f"/api/v1/transfers/{first['id']}/confirm", outsider_h)
    assert r.status_code == 404 and r.json["error"]["code"] == "not_found"
    assert events(m.engine) == before

    m.confirm(first)
    assert m.post(f"/api/v1/transfers/{first['id']}/approve", m.auth).status_code == 200
    # That the buyer's confirmation runs the rules again (a recapture since refuses it,
    # insufficient_balance) is held by tests/unit/services/trading/test_sale_rules.py.


def test_the_buyer_may_decline_and_the_authority_may_reject_before_confirmation(
    client: Any,
) -> None:
    m = Market(client)
    cert = _cert(m)
    t = m.negotiate(cert["id"], M, M).json
    declined = m.post(f"/api/v1/transfers/{t['id']}/decline", m.buyer_h, {"reason": "Too dear"})
    assert declined.status_code == 200, declined.json
    assert declined.json["status"] == "declined" and declined.json["reasons"] == ["Too dear"]
    assert m.post(f"/api/v1/transfers/{t['id']}/confirm", m.buyer_h).status_code == 409
    assert m.post(f"/api/v1/transfers/{t['id']}/approve", m.auth).status_code == 409

    other = m.negotiate(cert["id"], M, M).json
    r = m.post(f"/api/v1/transfers/{other['id']}/reject", m.auth, {"reason": "No agreement"})
    assert r.status_code == 200 and r.json["status"] == "rejected"
    assert m.cert(cert["id"])["balance_cents"] == 2 * M
    replay_equals_live_and_verifies(m.engine)


def test_a_transfer_from_an_accepted_offer_needs_no_confirmation(client: Any) -> None:
    m = Market(client)
    cert = _cert(m)
    listing = m.list_(cert["id"], M, 90 * M // 100)
    offer = m.offer(listing["id"], M, 80 * M // 100).json
    accepted = m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h).json
    transfer = accepted["transfer"]
    assert transfer["status"] == "pending_approval"
    r = m.post(f"/api/v1/transfers/{transfer['id']}/confirm", m.buyer_h)
    assert r.status_code == 409  # nothing to confirm: the offer was the buyer's
    assert m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth).status_code == 200


def test_the_sellers_refusal_does_not_reveal_the_buyers_tax_types(client: Any) -> None:
    m = Market(client, seller_types=["GIT"])
    cert = m.issue(program="DM_GIT", face_cents=M, fiscal_year=2014)
    insurer = create_party(
        client, m.auth, name="Insurer", tax_types=["IPT"], entity_type="insurance_company"
    )
    before = events(m.engine)
    r = m.negotiate(cert["id"], M // 2, M // 2, buyer_id=insurer["id"])
    assert r.status_code == 422 and r.json["error"]["code"] == "tax_type_not_allowed"
    body = r.get_data(as_text=True)
    assert "IPT" not in body and "Insurer" not in body
    assert "The buyer pays none of the taxes" in r.json["error"]["message"]
    assert "§2.7" in r.json["error"]["message"]
    assert events(m.engine) == before
    # Nor do the checks of a transfer the seller can read.
    t = m.confirm(m.negotiate(cert["id"], M // 2, M // 2).json)
    words = next(c for c in t["checks"] if c["rule"] == "buyer_tax_types")
    assert words["message"] == (
        "The buyer pays a tax a DM_GIT certificate may be used against (§2.7)."
    )


def test_the_buyers_page_confirms_and_declines(app: Any) -> None:
    pm = make_market(app)
    proposed = [
        pm.post(
            "/api/v1/transfers",
            pm.seller_h,
            {
                "certificate_id": pm.cert["id"],
                "buyer_party_id": pm.buyer["id"],
                "amount_cents": M // 2,
                "consideration_cents": M // 2,
            },
        )
        for _ in range(2)
    ]
    buyer = browser(app, "participant", pm.buyer["id"])
    html = buyer.get("/buyer").get_data(as_text=True)
    assert "Transfers waiting for your confirmation" in html
    assert "Camden Robotics" in html and html.count(">Confirm</button>") == 2
    r = confirm_form(buyer, "/buyer", f"/buyer/transfers/{proposed[0]['id']}/confirm", {})
    assert r.status_code == 302
    flash = buyer.get("/buyer").get_data(as_text=True)
    assert "confirmed; it now awaits the Authority" in flash
    r = confirm_form(buyer, "/buyer", f"/buyer/transfers/{proposed[1]['id']}/decline", {})
    assert r.status_code == 302
    statuses = {
        t["id"]: t["status"] for t in pm.api.get("/api/v1/transfers", headers=pm.eda).json["items"]
    }
    assert statuses == {proposed[0]["id"]: "pending_approval", proposed[1]["id"]: "declined"}
    assert "Transfers waiting for your confirmation" not in buyer.get("/buyer").get_data(
        as_text=True
    )
    # The seller's page cannot give the buyer's consent.
    seller = browser(app, "participant", pm.seller["id"])
    again = pm.post(
        "/api/v1/transfers",
        pm.seller_h,
        {
            "certificate_id": pm.cert["id"],
            "buyer_party_id": pm.buyer["id"],
            "amount_cents": M // 4,
            "consideration_cents": M // 4,
        },
    )
    before = events(app.extensions["market.engine"])
    r = post_form(seller, "/seller", f"/buyer/transfers/{again['id']}/confirm", {})
    assert r.status_code == 403
    assert events(app.extensions["market.engine"]) == before
