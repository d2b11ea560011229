"""The page forms that have an API twin validate with the API's own schema
(market.validation): an amount of $0 on the listing, offer, transfer-payment, return and
pass-through forms is refused with the schema's message beside the field, marked
aria-invalid and tied to it by aria-describedby, and nothing is written; the API refuses
the same zero with the same words; a valid submission still goes through."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from sqlalchemy import text

from market.services import clock
from tests.e2e.test_pages_support import M, browser, make_market, post_form
from tests.helpers import create_party, events, headers_for

ZERO = "Must be more than $0.00 and at most $1,000,000,000,000.00."


@pytest.fixture(autouse=True)
def business_day(app: Any) -> Iterator[None]:
    clock.configure(date(2014, 9, 1))  # after create_app, which sets it from MARKET_TODAY
    yield
    clock.configure(None)


def assert_marked(html: str, field_id: str, message: str) -> None:
    """The input `field_id` is invalid and described by the message shown under it."""
    tag = re.search(rf'<input id="{re.escape(field_id)}"[^>]*>', html)
    assert tag is not None, html[:3000]
    assert 'aria-invalid="true"' in tag.group(0)
    assert (
        f"{field_id}-error" in (re.search(r'aria-describedby="([^"]*)"', tag.group(0)) or [""])[0]
    )
    shown = re.search(rf'<span class="field-error" id="{re.escape(field_id)}-error">([^<]*)<', html)
    assert shown is not None and shown.group(1) == message


def types_after(engine: Any, seq: int) -> list[str]:
    """The types of the events appended after the first `seq`."""
    with engine.connect() as conn:
        rows = conn.execute(text("select type from events where seq > :s order by seq"), {"s": seq})
        return [row[0] for row in rows]


def api_messages(response: Any) -> list[str]:
    """The API's refusal of `amount_cents`: the schema's own messages."""
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "validation_failed"
    return response.json["error"]["details"]["fields"]["json"]["amount_cents"]  # type: ignore[no-any-return]


def test_a_listing_of_zero_is_refused_beside_its_field_and_writes_nothing(app: Any) -> None:
    m = make_market(app)
    seller = browser(app, "participant", m.seller["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"certificate_id": m.cert["id"], "amount": "0", "ask": "900000"}
    r = post_form(seller, "/seller", "/seller/listings", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, "list-amount", ZERO)
    assert "Nothing was written" in html
    assert 'aria-invalid="true"' not in html.split('id="list-ask"')[1].split(">")[0]
    assert events(engine) == before
    # The API's schema is the one the page used: the same zero, the same words.
    body = {"certificate_id": m.cert["id"], "amount_cents": 0, "ask_cents": 90 * M // 100}
    assert api_messages(m.api.post("/api/v1/listings", json=body, headers=m.seller_h)) == [ZERO]
    assert events(engine) == before


def test_a_valid_listing_is_still_made(app: Any) -> None:
    m = make_market(app)
    seller = browser(app, "participant", m.seller["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"certificate_id": m.cert["id"], "amount": "1,000,000", "ask": "900000.00"}
    r = post_form(seller, "/seller", "/seller/listings", data)
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    assert types_after(engine, before) == ["LISTING_CREATED"]
    assert "Listed $1,000,000.00" in seller.get("/seller").get_data(as_text=True)


def test_an_offer_of_zero_is_refused_beside_its_field_and_writes_nothing(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"listing_id": listing["id"], "amount": "0.00", "price": "750000"}
    r = post_form(buyer, "/market", "/market/offers", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, f"credit-{listing['id']}", ZERO)
    assert events(engine) == before
    body = {"amount_cents": 0, "price_cents": 75 * M // 100}
    path = f"/api/v1/listings/{listing['id']}/offers"
    assert api_messages(m.api.post(path, json=body, headers=m.buyer_h)) == [ZERO]
    assert events(engine) == before


def test_a_valid_offer_is_still_sent(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"listing_id": listing["id"], "amount": "1000000", "price": "750000"}
    assert post_form(buyer, "/market", "/market/offers", data).status_code == 302
    assert types_after(engine, before) == ["OFFER_MADE"]


def accepted_transfer(m: Any) -> dict[str, Any]:
    """An offer the seller accepted: a transfer the buyer pays on the closing page."""
    return m.pending_transfer()  # type: ignore[no-any-return]


def test_a_transfer_payment_of_zero_is_refused_beside_its_field_and_writes_nothing(
    app: Any,
) -> None:
    m = make_market(app)
    transfer = accepted_transfer(m)
    buyer = browser(app, "participant", m.buyer["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"reference": "W-0", "amount": "0", "paid_on": "2014-08-30"}
    r = post_form(buyer, "/closing", f"/closing/{transfer['id']}/payment", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, f"pay-{transfer['id']}-amount", ZERO)
    assert 'value="W-0"' in html  # the form keeps what was typed
    assert events(engine) == before
    body = {"reference": "W-0", "amount_cents": 0, "paid_on": "2014-08-30"}
    path = f"/api/v1/transfers/{transfer['id']}/payment"
    assert api_messages(m.api.post(path, json=body, headers=m.buyer_h)) == [ZERO]
    assert events(engine) == before


def test_a_payment_with_every_field_wrong_marks_each_field(app: Any) -> None:
    m = make_market(app)
    transfer = accepted_transfer(m)
    buyer = browser(app, "participant", m.buyer["id"])
    data = {"reference": "", "amount": "lots", "paid_on": "yesterday"}
    r = post_form(buyer, "/closing", f"/closing/{transfer['id']}/payment", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    prefix = f"pay-{transfer['id']}"
    assert_marked(html, f"{prefix}-reference", "Missing data for required field.")
    assert_marked(
        html, f"{prefix}-amount", "The amount paid must be an amount in dollars, like 1,250.00."
    )
    assert_marked(html, f"{prefix}-paid_on", "Not a valid date.")


def test_a_valid_transfer_payment_is_still_recorded(app: Any) -> None:
    m = make_market(app)
    transfer = accepted_transfer(m)
    buyer = browser(app, "participant", m.buyer["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"reference": "W-1", "amount": "800,000", "paid_on": "2014-08-30"}
    r = post_form(buyer, "/closing", f"/closing/{transfer['id']}/payment", data)
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    assert types_after(engine, before) == ["TRANSFER_PAYMENT_RECORDED"]


def held_certificate(m: Any) -> str:
    """The buyer's certificate from an approved transfer (what the buyer's desk applies)."""
    transfer = m.pending_transfer()
    approved = m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.eda, {})
    return approved["buyer_certificate_id"]  # type: ignore[no-any-return]


def test_applying_zero_to_a_return_is_refused_beside_its_field_and_writes_nothing(
    app: Any,
) -> None:
    m = make_market(app)
    cert_id = held_certificate(m)
    buyer = browser(app, "participant", m.buyer["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {
        "certificate_id": cert_id,
        "tax_type": "CBT",
        "tax_year": "2014",
        "liability": "400,000",
        "other_credits": "",
        "amount": "0",
    }
    r = post_form(buyer, "/buyer", "/buyer/returns", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, "apply-amount", ZERO)
    assert 'aria-invalid="true"' not in html.split('id="apply-liability"')[1].split(">")[0]
    assert events(engine) == before
    body = {
        "certificate_id": cert_id,
        "tax_type": "CBT",
        "tax_year": 2014,
        "liability_cents": 40 * M // 100,
        "amount_cents": 0,
    }
    assert api_messages(
        m.api.post("/api/v1/credit-applications", json=body, headers=m.buyer_h)
    ) == [ZERO]
    assert events(engine) == before
    # The same form with an amount goes through; a blank "other credits" is none.
    r = post_form(buyer, "/buyer", "/buyer/returns", data | {"amount": "1000000"})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    assert types_after(engine, before) == ["CREDIT_APPLIED"]


def test_passing_zero_through_is_refused_beside_its_field_and_writes_nothing(app: Any) -> None:
    m = make_market(app)
    firm = create_party(m.api, m.eda, name="Princeton Partners LP", entity_type="partnership")
    owner = create_party(m.api, m.eda, name="Partner A")
    share = {"voting_bps": 10000, "value_bps": 10000, "income_share_bps": 10000}
    m.post(f"/api/v1/parties/{firm['id']}/owners", m.eda, {"owner_party_id": owner["id"]} | share)
    m.buyer = firm
    m.buyer_h = headers_for(m.api, app.extensions["market.engine"], "participant", firm["id"])
    cert_id = held_certificate(m)
    partner = browser(app, "participant", firm["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"certificate_id": cert_id, "amount": "0"}
    r = post_form(partner, "/buyer", "/buyer/pass-through", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, "pt-income_share-amount", ZERO)
    assert 'aria-invalid="true"' not in html.split('id="apply-amount"')[1].split(">")[0]
    assert events(engine) == before
    path = f"/api/v1/certificates/{cert_id}/pass-through"
    assert api_messages(m.api.post(path, json={"amount_cents": 0}, headers=m.buyer_h)) == [ZERO]
    assert events(engine) == before
    # Blank is the whole balance, as on the API.
    r = post_form(partner, "/buyer", "/buyer/pass-through", data | {"amount": ""})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    assert "PASS_THROUGH_ALLOCATED" in types_after(engine, before)


def test_asking_zero_for_tech_benefits_is_refused_beside_its_field_and_writes_nothing(
    app: Any, market_today: Any
) -> None:
    from tests.e2e.test_pages_desks import TECH_FACTS

    market_today("2013-03-15")  # within FY 2013's intake (TB-6)
    m = make_market(app)
    startup = create_party(m.api, m.eda, name="Hoboken Quantum", **TECH_FACTS)
    seller = browser(app, "participant", startup["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"nol": "0", "allocation_factor": "1", "regime": "CBT", "rnd": "100,000"}
    r = post_form(seller, "/seller", "/seller/tech", data | {"requested": "0", "regime": "XYZ"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, "tech-requested", ZERO)
    assert 'id="tech-regime-error">Must be one of: CBT, GIT.<' in html
    assert events(engine) == before
    body = {
        "party_id": startup["id"],
        "nol_cents": 0,
        "allocation_factor": "1",
        "seller_tax_regime": "CBT",
        "rnd_credit_cents": 10_000_000,
        "requested_cents": 0,
    }
    headers = headers_for(m.api, engine, "participant", startup["id"])
    r = m.api.post("/api/v1/tech/applications", json=body, headers=headers)
    assert r.status_code == 400
    assert r.json["error"]["details"]["fields"]["json"]["requested_cents"] == [ZERO]
    assert events(engine) == before
    # A blank amount asked is the whole benefit, as on the API.
    r = post_form(seller, "/seller", "/seller/tech", data | {"requested": ""})
    assert r.status_code == 302, r.get_data(as_text=True)[:2000]
    assert types_after(engine, before) == ["TECH_APPLICATION_RECEIVED"]


def test_a_recapture_of_zero_is_refused_beside_its_field_and_writes_nothing(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {
        "party": f"Camden Robotics · {m.seller['tax_id']}",
        "certificate": m.cert["number"],
        "amount": "0",
        "reason": "Jobs not retained",
    }
    r = post_form(eda, "/authority", "/authority/recaptures", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, "recapture-amount", ZERO)
    assert "Review before you confirm" not in html
    assert events(engine) == before
    body = {"party_id": m.seller["id"], "amount_cents": 0, "reason": "Jobs not retained"}
    assert api_messages(m.api.post("/api/v1/recaptures", json=body, headers=m.eda)) == [ZERO]
    assert events(engine) == before


def test_a_rejection_reason_longer_than_the_api_takes_is_refused_beside_it(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    eda = browser(app, "authority")
    engine = app.extensions["market.engine"]
    before = events(engine)
    action = f"/authority/transfers/{transfer['id']}/reject"
    r = post_form(eda, "/authority", action, {"reason": "x" * 501})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    shown = f'id="reject-{transfer["id"]}-error">Length must be between 1 and 500.<'
    assert shown in html, html[:3000]
    assert "Review before you confirm" not in html
    assert events(engine) == before
