"""The page forms that have an API twin validate with the API's own schema
(market.validation): an amount of $0 on the listing, offer and transfer-payment forms is
refused with the schema's message beside the field, marked aria-invalid and tied to it by
aria-describedby, and nothing is written; the API refuses the same zero with the same
words; a valid submission still goes through. The holder's and the Authority's desk forms:
test_pages_form_schemas_desks.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from sqlalchemy import text

from market.services.kernel import clock
from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import events

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
    data = {"certificate_id": m.cert["id"], "amount": "0", "per_dollar": "90"}
    r = post_form(seller, "/seller", "/seller/listings", data)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert_marked(html, "list-amount", ZERO)
    assert "Nothing was written" in html
    assert 'aria-invalid="true"' not in html.split('id="list-per_dollar"')[1].split(">")[0]
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
    data = {"certificate_id": m.cert["id"], "amount": "1,000,000", "per_dollar": "90"}
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
    data = {"listing_id": listing["id"], "amount": "0.00", "per_dollar": "75"}
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
    data = {"listing_id": listing["id"], "amount": "1000000", "per_dollar": "75"}
    assert confirm_form(buyer, "/market", "/market/offers", data).status_code == 302
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
