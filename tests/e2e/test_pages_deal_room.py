"""The deal room (issue 28 item 1): one page per transfer, titled in words, with the
certificate, the parties, the stages (who acts, since when, New York time), the viewer's
actions and the whole timeline through payment and receipt. Both parties and the
Authority follow a negotiated sale from proposal to receipt on it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_pages_form_schemas import types_after
from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import create_party, events, headers_for

pytestmark = pytest.mark.storage


def _propose(m: Any) -> str:
    body = {
        "certificate_id": m.cert["id"],
        "buyer_party_id": m.buyer["id"],
        "amount_cents": M,
        "consideration_cents": 90 * M // 100,
    }
    return str(m.post("/api/v1/transfers", m.seller_h, body)["id"])


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _next(page: str) -> str:
    found = re.search(r'<p id="next-step">(.*?)</p>', page, re.S)
    assert found, page[:3000]
    return _text(found.group(1)).strip()


def test_a_negotiated_sale_is_followed_to_receipt_in_its_deal_room(app: Any) -> None:
    m = make_market(app)
    engine = app.extensions["market.engine"]
    tid = _propose(m)
    room = f"/deals/transfers/{tid}"
    seller, buyer = (
        browser(app, "participant", m.seller["id"]),
        browser(app, "participant", m.buyer["id"]),
    )
    eda = browser(app, "authority")

    page = buyer.get(room).get_data(as_text=True)
    assert "<h1>Camden Robotics sells credit to Newark Insurance Holdings</h1>" in page
    assert tid not in _text(page)  # words, not the id
    # The seller's certificate by number; the buyer may not open it, so it is not a link.
    assert m.cert["number"] in page and f'href="/certificates/{m.cert["number"]}"' not in page
    seller_view = seller.get(room).get_data(as_text=True)
    assert f'href="/certificates/{m.cert["number"]}">{m.cert["number"]}</a>' in seller_view
    assert "90¢ per $1" in page and "$1,000,000.00" in page
    assert _next(page) == "Newark Insurance Holdings confirms the transfer."
    assert "Waiting since" in page and re.search(r"\d{1,2}:\d\d [ap]m E[SD]T", page)
    assert "Review and confirm the purchase" in page
    # the seller sees what waits, but not the buyer's button
    assert "Review and confirm the purchase" not in seller.get(room).get_data(as_text=True)

    # the buyer's confirmation is reviewed first (a rehearsal: nothing written)
    before = events(engine)
    review = post_form(buyer, room, f"/buyer/transfers/{tid}/confirm", {"from": "deal"})
    assert review.status_code == 200 and "Confirm: buy this credit" in review.get_data(as_text=True)
    assert events(engine) == before
    done = confirm_form(buyer, room, f"/buyer/transfers/{tid}/confirm", {"from": "deal"})
    assert done.status_code == 302 and done.headers["Location"].endswith(room)

    page = eda.get(room).get_data(as_text=True)
    assert _next(page) == "The Authority approves the transfer."
    assert "Review and approve" in page and "Review and reject" in page
    assert "Review and approve" not in buyer.get(room).get_data(as_text=True)
    done = confirm_form(eda, room, f"/authority/transfers/{tid}/approve", {"from": "deal"})
    assert done.status_code == 302 and done.headers["Location"].endswith(room)

    page = buyer.get(room).get_data(as_text=True)
    assert _next(page) == "Newark Insurance Holdings records its payment."
    assert "Buyer&#39;s certificate" in page or "Buyer's certificate" in page
    refused = post_form(
        buyer,
        room,
        f"/closing/{tid}/payment",
        {"from": "deal", "reference": "WIRE-7", "amount": "0", "paid_on": "2014-08-30"},
    )
    assert refused.status_code == 400
    body = refused.get_data(as_text=True)
    assert 'id="payment-form"' in body and 'aria-invalid="true"' in body
    assert 'value="WIRE-7"' in body  # kept as typed, on the deal room's own form
    paid = post_form(
        buyer,
        room,
        f"/closing/{tid}/payment",
        {"from": "deal", "reference": "WIRE-7", "amount": "900,000", "paid_on": "2014-08-30"},
    )
    assert paid.status_code == 302 and paid.headers["Location"].endswith(room)

    page = seller.get(room).get_data(as_text=True)
    assert _next(page) == "Camden Robotics confirms receipt of the payment."
    got = post_form(seller, room, f"/closing/{tid}/receipt", {"from": "deal"})
    assert got.status_code == 302 and got.headers["Location"].endswith(room)

    for viewer in (seller, buyer, eda):
        page = viewer.get(room).get_data(as_text=True)
        assert _next(page) == "None: the deal is complete."
        timeline = _text(page.split('id="timeline-title"', 1)[1])
        for step in ("awaiting buyer", "pending approval", "approved", "paid", "payment received"):
            assert step in timeline, (step, timeline)
        assert "UTC" not in timeline and "user:" not in timeline
        assert timeline.count("by Camden Robotics") == 2  # proposal and receipt


def test_an_offer_that_became_a_transfer_opens_the_transfers_room(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    buyer = browser(app, "participant", m.buyer["id"])
    offer_page = buyer.get(f"/deals/offers/{transfer['offer_id']}")
    assert offer_page.status_code == 302
    room = offer_page.headers["Location"]
    assert room.endswith(f"/deals/transfers/{transfer['id']}")
    page = buyer.get(room).get_data(as_text=True)
    stages = _text(page.split('id="stages-title"', 1)[1].split("</ol>", 1)[0])
    assert "Done: The buyer makes an offer" in stages
    assert "Done: The seller accepts the offer" in stages
    assert "Waiting: The Authority approves the transfer" in stages


def test_a_stranger_gets_the_same_404_as_for_no_deal(app: Any) -> None:
    m = make_market(app)
    tid = _propose(m)
    other = create_party(app.test_client(), m.eda, name="Trenton Outsider LLC")
    headers_for(app.test_client(), app.extensions["market.engine"], "participant", other["id"])
    stranger = browser(app, "participant", other["id"])
    assert stranger.get(f"/deals/transfers/{tid}").status_code == 404
    assert stranger.get("/deals/transfers/trf_doesnotexist").status_code == 404


def test_a_rejection_from_the_room_is_reviewed_and_shown_to_both(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    room = f"/deals/transfers/{transfer['id']}"
    eda = browser(app, "authority")
    action = f"/authority/transfers/{transfer['id']}/reject"
    blank = post_form(eda, room, action, {"from": "deal", "reason": " "})
    assert blank.status_code == 400 and 'id="reject-form"' in blank.get_data(as_text=True)
    done = confirm_form(eda, room, action, {"from": "deal", "reason": "Price not evidenced"})
    assert done.status_code == 302 and done.headers["Location"].endswith(room)
    seller = browser(app, "participant", m.seller["id"])
    page = seller.get(room).get_data(as_text=True)
    assert "Closed: The Authority rejected the transfer" in _text(page)
    assert "Price not evidenced" in page
    assert _next(page) == "None: the transfer was rejected; the seller keeps the credit."


def test_an_open_offer_and_a_tech_application_are_titled_in_words(app: Any) -> None:
    m = make_market(app)
    offer = m.offer(m.listing()["id"])
    seller = browser(app, "participant", m.seller["id"])
    page = seller.get(f"/deals/offers/{offer['id']}").get_data(as_text=True)
    assert "<h1>Newark Insurance Holdings offers to buy credit from Camden Robotics</h1>" in page
    assert offer["id"] not in _text(page) and "80¢ per $1" in page
    assert f">{m.cert['number']}</a>" in page
    assert _next(page) == "The seller accepts, counters or declines the offer."


def test_every_desk_links_the_deal_room(app: Any) -> None:
    m = make_market(app)
    offer = m.offer(m.listing()["id"])
    tid = _propose(m)
    seller = browser(app, "participant", m.seller["id"]).get("/seller").get_data(as_text=True)
    assert f'href="/deals/offers/{offer["id"]}"' in seller
    buyer = browser(app, "participant", m.buyer["id"]).get("/buyer").get_data(as_text=True)
    assert f'href="/deals/transfers/{tid}"' in buyer
    accepted = m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h, {})["transfer"]
    desk = browser(app, "authority").get("/authority").get_data(as_text=True)
    assert f'href="/deals/transfers/{accepted["id"]}">Open the deal room</a>' in desk


def test_the_parties_write_to_each_other_in_the_room(app: Any) -> None:
    m = make_market(app)
    engine = app.extensions["market.engine"]
    tid = _propose(m)
    room = f"/deals/transfers/{tid}"
    seller = browser(app, "participant", m.seller["id"])
    buyer = browser(app, "participant", m.buyer["id"])
    action = f"{room}/messages"
    before = events(engine)
    for bad, why in (("   ", "1 to 2000 characters"), ("pay\u200bme", "U+200B")):
        r = post_form(seller, room, action, {"body": bad})
        page = r.get_data(as_text=True)
        assert r.status_code == 422 and why in page and 'id="message-body-error"' in page
    assert events(engine) == before
    sent = post_form(seller, room, action, {"body": "The wire instructions follow by post."})
    assert sent.status_code == 302 and sent.headers["Location"].endswith(f"{room}#messages")
    assert types_after(engine, before) == ["DEAL_MESSAGE_POSTED"], types_after(engine, before)
    page = buyer.get(room).get_data(as_text=True)
    assert "The wire instructions follow by post." in page and "Write to Camden Robotics" in page
    inbox = m.api.get("/api/v1/notifications", headers=m.buyer_h).json["items"]
    note = next(n for n in inbox if n["type"] == "DEAL_MESSAGE_POSTED")
    assert note["subject"] == f"Message from Camden Robotics about {m.cert['number']}"
    assert note["link"] == room
    authority = browser(app, "authority").get(room).get_data(as_text=True)
    assert (
        "The wire instructions follow by post." in authority
        and 'id="message-form"' not in authority
    )
    other = create_party(app.test_client(), m.eda, name="Paterson Nosy LLC")
    stranger = browser(app, "participant", other["id"])
    settled = events(engine)
    assert post_form(stranger, "/market", action, {"body": "hello"}).status_code == 404
    assert events(engine) == settled


def test_a_countered_offer_shows_the_counter_and_its_acceptance_as_stages(app: Any) -> None:
    m = make_market(app)
    offer = m.offer(m.listing()["id"])
    m.post(
        f"/api/v1/offers/{offer['id']}/counter",
        m.seller_h,
        {"amount_cents": M, "price_cents": 85 * M // 100},
    )
    r = m.api.post(f"/api/v1/offers/{offer['id']}/counter/accept", json={}, headers=m.buyer_h)
    assert r.status_code == 201, r.json
    room = browser(app, "participant", m.buyer["id"]).get(f"/deals/offers/{offer['id']}")
    assert room.status_code == 302
    page = browser(app, "participant", m.buyer["id"]).get(room.headers["Location"])
    stages = _text(page.get_data(as_text=True).split('id="stages-title"', 1)[1].split("</ol>")[0])
    assert "Done: The seller counters the offer" in stages
    assert "Done: The buyer accepts the counter-offer" in stages
    assert "Waiting: The Authority approves the transfer" in stages
    assert "85¢ per $1" in page.get_data(as_text=True)
