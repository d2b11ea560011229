"""The market page and the Authority's approval queue, for every role."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import events


@pytest.mark.parametrize("role", ["authority", "participant", "auditor"])
def test_every_signed_in_role_sees_the_open_listings(app: Any, role: str) -> None:
    m = make_market(app)
    m.listing()
    party = m.buyer["id"] if role == "participant" else None
    html = browser(app, role, party).get("/market").get_data(as_text=True)
    assert m.cert["number"] in html and "BRRAG" in html and "FY 2014" in html
    assert "$1,000,000.00" in html and "$900,000.00" in html
    assert "90¢ per $1" in html and "75¢ per $1" in html  # price per dollar and the floor
    assert ("Make an offer" in html) == (role == "participant")
    assert "Camden Robotics" not in html  # the seller's name is not part of the listing


def test_the_market_filters_by_program(app: Any) -> None:
    m = make_market(app)
    m.listing()
    page = browser(app, "auditor")
    assert m.cert["number"] in page.get("/market?program=BRRAG").get_data(as_text=True)
    assert m.cert["number"] not in page.get("/market?program=UTH").get_data(as_text=True)


def test_a_uth_listing_says_how_much_is_conditional(app: Any) -> None:
    """UTH-27: the part of a listing that falls on installments not yet reviewed."""
    m = make_market(app)
    body = {
        "program": "UTH",
        "holder_party_id": m.seller["id"],
        "face_cents": 10 * M,
        "fiscal_year": 2014,
        "tax_periods": [2013],
    }
    uth = m.post("/api/v1/certificates", m.eda, body)
    listing = {"certificate_id": uth["id"], "amount_cents": 3 * M // 2, "ask_cents": 9 * M // 8}
    assert m.post("/api/v1/listings", m.seller_h, listing)["conditional_cents"] == 3 * M // 2
    html = browser(app, "participant", m.buyer["id"]).get("/market?program=UTH")
    assert "$1,500,000.00 conditional" in html.get_data(as_text=True)


def test_the_market_needs_sign_in(client: Any) -> None:
    r = client.get("/market")
    assert r.status_code == 302 and "/login" in r.headers["Location"]


def test_an_offer_below_the_floor_is_refused_in_words_and_writes_nothing(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    before = events(app.extensions["market.engine"])
    r = post_form(
        buyer,
        "/market",
        "/market/offers",
        {"listing_id": listing["id"], "amount": "1,000,000", "price": "700000.00"},
    )
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert "$700,000.00 is 70.0000% of $1,000,000.00; BRRAG requires at least 75%" in html
    assert 'value="700000.00"' in html  # the form keeps what was typed
    assert events(app.extensions["market.engine"]) == before


def test_an_offer_at_the_floor_is_sent(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    data = {"listing_id": listing["id"], "amount": "1000000", "price": "750000"}
    r = post_form(buyer, "/market", "/market/offers", data)
    assert r.status_code == 302
    assert "was sent to the seller" in buyer.get("/market").get_data(as_text=True)


@pytest.mark.parametrize(
    ("price", "message"),
    [
        ("750000.001", "more than two decimals"),
        ("-5", "must not be negative"),
        ("lots", "must be an amount in dollars"),
        ("", "is required"),
    ],
)
def test_an_unreadable_amount_is_refused_with_a_message(app: Any, price: str, message: str) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    data = {"listing_id": listing["id"], "amount": "1000000", "price": price}
    r = post_form(buyer, "/market", "/market/offers", data)
    assert r.status_code == 400 and message in r.get_data(as_text=True)


def test_an_auditor_may_not_make_an_offer(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    auditor = browser(app, "auditor")
    data = {"listing_id": listing["id"], "amount": "1000000", "price": "750000"}
    assert post_form(auditor, "/market", "/market/offers", data).status_code == 403


def test_a_form_post_without_the_csrf_token_is_refused(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    data = {"listing_id": listing["id"], "amount": "1000000", "price": "750000"}
    assert buyer.post("/market/offers", data=data).status_code == 400


# ---- the Authority's queue -------------------------------------------------------------


def test_the_queue_shows_every_check_in_words(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    html = browser(app, "authority").get("/authority").get_data(as_text=True)
    assert transfer["id"] in html
    assert "Camden Robotics" in html and "Newark Insurance Holdings" in html
    for rule in ("balance", "no resale", "minimum consideration", "buyer tax types"):
        assert f'<td data-label="Rule">{rule}</td>' in html
    assert "80.0000% of the amount sold; at least 75% is required (CMN-5)" in html
    assert "No buyer-seller affiliation bar applies to BRRAG" in html
    assert "not affiliated" in html and "failed" not in html


def test_the_queue_shows_the_affiliation_path(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    parent = m.post(
        "/api/v1/parties",
        m.eda,
        {
            "name": "Delaware Parent",
            "tax_id": "99-1234567",
            "entity_type": "c_corporation",
            "tax_types": ["CBT"],
        },
    )
    for owned in (m.seller["id"], m.buyer["id"]):
        m.post(
            f"/api/v1/parties/{owned}/owners",
            m.eda,
            {"owner_party_id": parent["id"], "voting_bps": 6000, "value_bps": 6000},
        )
    html = browser(app, "authority").get("/authority").get_data(as_text=True)
    assert transfer["id"] in html and ">affiliated<" in html
    section = html.split(f'id="transfer-{transfer["id"]}"', 1)[1]
    assert "Delaware Parent" in section or parent["id"] in section


def test_the_authority_approves_a_transfer(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    eda = browser(app, "authority")
    r = post_form(eda, "/authority", f"/authority/transfers/{transfer['id']}/approve", {})
    assert r.status_code == 302
    html = eda.get("/authority").get_data(as_text=True)
    assert "approved" in html and transfer["id"] not in html
    got = m.api.get(f"/api/v1/transfers/{transfer['id']}", headers=m.eda).json
    assert got["status"] == "approved"


def test_a_rejection_needs_a_reason(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    eda = browser(app, "authority")
    action = f"/authority/transfers/{transfer['id']}/reject"
    r = post_form(eda, "/authority", action, {"reason": "  "})
    assert r.status_code == 400 and "A reason for the rejection is required" in r.get_data(
        as_text=True
    )
    r = confirm_form(eda, "/authority", action, {"reason": "Consideration not evidenced"})
    assert r.status_code == 302
    got = m.api.get(f"/api/v1/transfers/{transfer['id']}", headers=m.eda).json
    assert got["status"] == "rejected" and got["reasons"] == ["Consideration not evidenced"]


def test_approving_twice_is_refused_in_words(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    eda = browser(app, "authority")
    action = f"/authority/transfers/{transfer['id']}/approve"
    assert post_form(eda, "/authority", action, {}).status_code == 302
    r = post_form(eda, "/authority", action, {})
    assert r.status_code == 409 and "is already approved" in r.get_data(as_text=True)


def test_the_authority_issues_a_certificate_and_assesses_a_recapture(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    r = confirm_form(
        eda,
        "/authority",
        "/authority/certificates",
        {
            "program": "BRRAG",
            "holder": f"Newark Insurance Holdings · {m.buyer['tax_id']}",
            "face": "250,000.50",
            "fiscal_year": "2015",
            "retained_jobs": "167",  # $250,500 a year: the face fits (BR-6)
            "nj_operations_since": "1999-05-01",
            "cannot_use_before_expiry": "yes",
        },
    )
    assert r.status_code == 302
    assert "issued (issued)" in eda.get("/authority").get_data(as_text=True)
    r = confirm_form(
        eda,
        "/authority",
        "/authority/recaptures",
        {
            "party": f"Camden Robotics · {m.seller['tax_id']}",
            "certificate": m.cert["number"],
            "amount": "1000",
            "reason": "Jobs not retained",
        },
    )
    assert r.status_code == 302
    assert "Recapture of $1,000.00 assessed" in eda.get("/authority").get_data(as_text=True)
    cert = m.api.get(f"/api/v1/certificates/{m.cert['id']}", headers=m.eda).json
    assert cert["balance_cents"] == 2 * M - 100_000


def test_issuing_over_the_cap_is_refused_in_words(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    data = {
        "program": "BRRAG",
        "holder": m.buyer["id"],
        "face": "30000000",
        "fiscal_year": "2014",
        "retained_jobs": "20000",
        "nj_operations_since": "1999-05-01",
        "cannot_use_before_expiry": "yes",
    }
    r = post_form(eda, "/authority", "/authority/certificates", data | {"confirm": "yes"})
    assert r.status_code == 422 and "cap" in r.get_data(as_text=True).lower()


@pytest.mark.parametrize(("role", "status"), [("participant", 403), ("auditor", 403)])
def test_only_the_authority_sees_the_queue(app: Any, role: str, status: int) -> None:
    m = make_market(app)
    party = m.buyer["id"] if role == "participant" else None
    assert browser(app, role, party).get("/authority").status_code == status


def test_the_queue_needs_sign_in(client: Any) -> None:
    r = client.get("/authority")
    assert r.status_code == 302 and "/login" in r.headers["Location"]
