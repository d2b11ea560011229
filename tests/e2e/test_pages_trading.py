"""Trading in the pages (issue 28 item 3), through the Flask test client on SQLite and
PostgreSQL: a seller proposes a negotiated transfer to a named buyer (review, then
confirm), counters an offer that the buyer accepts or declines, prices are typed and
shown in cents on the dollar, offers expire, and a partly sold listing asks for what is
left."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import events

pytestmark = pytest.mark.storage

PROPOSE = "/seller/transfers/new"


def propose_data(m: Any, **changes: str) -> dict[str, str]:
    return {
        "certificate_id": m.cert["id"],
        "buyer": m.buyer["name"],
        "amount": "500,000",
        "per_dollar": "80",
        "agreement_ref": "PSA-7",
    } | changes


def field_error(html: str, field_id: str) -> str:
    found = re.search(rf'id="{field_id}-error">([^<]*)<', html)
    assert found, f"no error beside {field_id}"
    return found.group(1)


def test_a_seller_proposes_a_transfer_reviews_the_rules_and_confirms(app: Any) -> None:
    m = make_market(app)
    seller = browser(app, "participant", m.seller["id"])
    engine = app.extensions["market.engine"]
    page = seller.get(PROPOSE).get_data(as_text=True)
    assert m.cert["number"] in page and 'name="per_dollar"' in page
    assert PROPOSE in seller.get("/seller").get_data(as_text=True)  # linked from the desk
    before = events(engine)
    review = post_form(seller, PROPOSE, PROPOSE, propose_data(m))
    html = review.get_data(as_text=True)
    assert review.status_code == 200 and "Review before you confirm" in html
    assert "80¢ per $1: $400,000.00" in html and m.buyer["name"] in html
    assert "✓ At least the program&#39;s floor (CMN-5)" in html
    assert "✓ Seller and buyer not affiliated" in html and "✗" not in html
    assert events(engine) == before  # the review wrote nothing
    done = confirm_form(seller, PROPOSE, PROPOSE, propose_data(m))
    assert done.status_code == 302
    transfer_id = done.headers["Location"].rsplit("/", 1)[-1]
    assert done.headers["Location"] == f"/deals/transfers/{transfer_id}"
    t = m.api.get(f"/api/v1/transfers/{transfer_id}", headers=m.seller_h).json
    assert t["status"] == "awaiting_buyer" and t["buyer_party_id"] == m.buyer["id"]
    assert (t["amount_cents"], t["consideration_cents"]) == (M // 2, 40 * M // 100)
    assert t["agreement_ref"] == "PSA-7"


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"per_dollar": "70"}, "per_dollar", "requires at least 75%"),
        ({"per_dollar": "ninety"}, "per_dollar", "must be cents on the dollar"),
        ({"amount": "3,000,000"}, "amount", "$3,000,000.00"),
        ({"buyer": "Nobody Such Co"}, "buyer", "No party matches"),
        ({"buyer": "Camden Robotics"}, "buyer", "cannot buy its own certificate"),
    ],
)
def test_a_proposal_that_would_be_refused_says_why_beside_the_field(
    app: Any, changes: dict[str, str], field: str, words: str
) -> None:
    m = make_market(app)
    seller = browser(app, "participant", m.seller["id"])
    engine = app.extensions["market.engine"]
    before = events(engine)
    r = post_form(seller, PROPOSE, PROPOSE, propose_data(m, **changes))
    html = r.get_data(as_text=True)
    assert r.status_code in (400, 422) and "Review before you confirm" not in html
    assert words in field_error(html, f"propose-{field}")
    assert 'aria-invalid="true"' in html.split(f'id="propose-{field}"')[1].split(">")[0]
    assert f'value="{propose_data(m, **changes)[field]}"' in html or field == "amount"
    # A confirmation forged past the review is refused the same way.
    forged = post_form(seller, PROPOSE, PROPOSE, propose_data(m, **changes) | {"confirm": "yes"})
    assert forged.status_code in (400, 422)
    assert events(engine) == before


def test_a_buyer_may_not_propose_from_anothers_certificate(app: Any) -> None:
    m = make_market(app)
    buyer = browser(app, "participant", m.buyer["id"])
    data = propose_data(m, buyer=m.seller["name"])
    r = post_form(buyer, PROPOSE, PROPOSE, data)
    assert r.status_code == 404
    assert "does not exist" in field_error(r.get_data(as_text=True), "propose-certificate_id")


def test_an_offer_is_typed_in_cents_on_the_dollar_and_rounds_up_to_a_cent(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    data = {"listing_id": listing["id"], "amount": "333.33", "per_dollar": "75.1"}
    r = confirm_form(buyer, "/market", "/market/offers", data)
    assert r.status_code == 302, r.get_data(as_text=True)[:3000]
    flashed = buyer.get("/market").get_data(as_text=True)
    assert "Your offer of 75.1¢ per $1 ($250.34 for $333.33 of credit)" in flashed
    offers = m.api.get("/api/v1/deals?side=buyer", headers=m.buyer_h).json["items"]
    assert offers[0]["amount_cents"] == 33_333 and offers[0]["price_cents"] == 25_034


def test_an_offer_with_a_last_day_is_shown_and_lapses_after_it(app: Any, market_today: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    data = {
        "listing_id": listing["id"],
        "amount": "1,000,000",
        "per_dollar": "80",
        "expires_on": "2014-09-03",
    }
    assert confirm_form(buyer, "/market", "/market/offers", data).status_code == 302
    assert "open through 2014-09-03" in buyer.get("/market").get_data(as_text=True)
    seller = browser(app, "participant", m.seller["id"])
    html = seller.get("/seller").get_data(as_text=True)
    assert "open through 2014-09-03" in html and "Accept</button>" in html
    market_today("2014-09-04")
    html = seller.get("/seller").get_data(as_text=True)
    assert ">expired<" in html and "lapsed after 2014-09-03" in html
    assert "Accept</button>" not in html
    offer_id = re.search(r'id="offer-(ofr_[^"]+)"', html)
    assert offer_id
    before = events(app.extensions["market.engine"])
    r = post_form(seller, "/seller", f"/seller/offers/{offer_id.group(1)}/accept", {})
    assert r.status_code == 422 and "The offer expired" in r.get_data(as_text=True)
    assert events(app.extensions["market.engine"]) == before


def test_the_seller_counters_and_the_buyer_accepts_from_its_desk(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    offer = m.offer(listing["id"], M, 78 * M // 100)
    seller = browser(app, "participant", m.seller["id"])
    counter = f"/seller/offers/{offer['id']}/counter"
    assert counter in seller.get("/seller").get_data(as_text=True)  # linked from the desk
    form = seller.get(counter).get_data(as_text=True)
    assert "78¢ per $1: $780,000.00 for $1,000,000.00" in form and 'value="1000000.00"' in form
    terms = {"amount": "1,000,000", "per_dollar": "85.5"}
    engine = app.extensions["market.engine"]
    before = events(engine)
    review = post_form(seller, counter, counter, terms | {"expires_on": "2014-09-10"})
    html = review.get_data(as_text=True)
    assert "Review before you confirm" in html and events(engine) == before
    assert "78¢ per $1: $780,000.00" in html
    assert "85.5¢ per $1: $855,000.00 for $1,000,000.00 of credit, open through 2014-09-10" in html
    sent = confirm_form(seller, counter, counter, terms | {"expires_on": "2014-09-10"})
    assert sent.status_code == 302
    assert "Counter-offer sent: 85.5¢ per $1" in seller.get("/seller").get_data(as_text=True)

    buyer = browser(app, "participant", m.buyer["id"])
    desk = buyer.get("/buyer").get_data(as_text=True)
    assert "Counter-offers from sellers" in desk and "85.5¢ per $1" in desk
    assert "Camden Robotics" in desk and "2014-09-10" in desk
    accept = f"/buyer/offers/{offer['id']}/counter/accept"
    done = confirm_form(buyer, "/buyer", accept, {})
    assert done.status_code == 302 and done.headers["Location"].startswith("/deals/transfers/")
    t = m.api.get(f"/api/v1/offers/{offer['id']}", headers=m.buyer_h).json["transfer"]
    assert t["status"] == "pending_approval" and t["consideration_cents"] == 855_000_00


def test_a_counter_below_the_floor_is_refused_beside_its_field(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    offer = m.offer(listing["id"], M, 78 * M // 100)
    seller = browser(app, "participant", m.seller["id"])
    counter = f"/seller/offers/{offer['id']}/counter"
    terms = {"amount": "1,000,000", "per_dollar": "101"}
    r = post_form(seller, counter, counter, terms)
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert "from 0 to 100" in field_error(html, "counter-per_dollar")
    assert 'value="101"' in html  # kept as typed
    low = terms | {"per_dollar": "70", "confirm": "yes"}
    r = post_form(seller, counter, counter, low)
    assert r.status_code == 422 and "requires at least 75%" in r.get_data(as_text=True)
    offers = m.api.get(f"/api/v1/offers/{offer['id']}", headers=m.seller_h).json
    assert offers["status"] == "open"


def test_the_buyer_declines_a_counter(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    offer = m.offer(listing["id"], M, 78 * M // 100)
    body = {"amount_cents": M, "price_cents": 88 * M // 100}
    m.post(f"/api/v1/offers/{offer['id']}/counter", m.seller_h, body)
    buyer = browser(app, "participant", m.buyer["id"])
    done = confirm_form(buyer, "/buyer", f"/buyer/offers/{offer['id']}/counter/decline", {})
    assert done.status_code == 302
    html = buyer.get("/buyer").get_data(as_text=True)
    assert "Counter-offer declined" in html and "Counter-offers from sellers" not in html
    read = m.api.get(f"/api/v1/offers/{offer['id']}", headers=m.buyer_h).json
    assert read["status"] == "declined"


def test_a_partly_sold_listing_asks_for_what_is_left(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()  # $1,000,000 for $900,000
    offer = m.offer(listing["id"], 40 * M // 100, 32 * M // 100)
    accepted = m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h, {})
    m.post(f"/api/v1/transfers/{accepted['transfer']['id']}/approve", m.eda, {})
    read = m.api.get("/api/v1/listings", headers=m.buyer_h).json["items"][0]
    assert read["available_cents"] == 60 * M // 100
    assert read["available_ask_cents"] == 54 * M // 100
    buyer = browser(app, "participant", m.buyer["id"])
    row = buyer.get("/market").get_data(as_text=True).split(m.cert["number"])[1]
    assert "$600,000.00" in row and "$540,000.00" in row and "90¢ per $1" in row
    assert "$900,000.00" not in row.split("</tr>")[0]  # not the original ask


@pytest.mark.parametrize(
    ("typed", "words"),
    [("31/12/2014", "must be a date like"), ("2014-08-01", "before today (2014-09-01)")],
)
def test_an_offers_last_day_is_refused_in_words_when_unreadable_or_past(
    app: Any, typed: str, words: str
) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    before = events(app.extensions["market.engine"])
    data = {"listing_id": listing["id"], "amount": "1000", "per_dollar": "80"}
    r = post_form(buyer, "/market", "/market/offers", data | {"expires_on": typed})
    assert r.status_code in (400, 422) and words in r.get_data(as_text=True)
    assert f'value="{typed}"' in r.get_data(as_text=True)  # kept as typed
    assert events(app.extensions["market.engine"]) == before
