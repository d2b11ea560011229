"""The pages a seller and a buyer follow their deals on: the inbox with the unread count
in the header, "My offers and purchases", "My sales", a deal's timeline, public status."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.test_pages_support import M, browser, make_market, post_form


def test_a_rejected_transfer_shows_its_reason_on_both_sides_pages(app: Any) -> None:
    m = make_market(app)
    t = m.pending_transfer()
    m.post(f"/api/v1/transfers/{t['id']}/reject", m.eda, {"reason": "Buyer not registered."})
    seller = browser(app, "participant", m.seller["id"])
    buyer = browser(app, "participant", m.buyer["id"])
    sales = seller.get("/deals/selling").get_data(as_text=True)
    purchases = buyer.get("/deals/buying").get_data(as_text=True)
    for page in (sales, purchases):
        assert "rejected" in page and "Buyer not registered." in page
        assert ">accepted<" not in page  # the offer reads as its transfer's outcome
    deal = seller.get(f"/deals/transfers/{t['id']}").get_data(as_text=True)
    assert "Reason: Buyer not registered." in deal and "by the Authority" in deal
    assert "What happens next" in deal and "by Camden Robotics" in deal
    reference = re.search(r"/status/([0-9a-f]{32})", deal)
    assert reference is not None
    public = app.test_client().get(f"/status/{reference.group(1)}").get_data(as_text=True)
    assert "rejected" in public and "Camden" not in public and "$" not in public
    assert app.test_client().get("/status/" + "0" * 32).status_code == 404


def test_the_header_counts_unread_notices_and_reading_clears_them(app: Any) -> None:
    m = make_market(app)
    m.offer(m.listing()["id"])
    seller = browser(app, "participant", m.seller["id"])
    page = seller.get("/notifications").get_data(as_text=True)
    assert "New offer:" in page and "Newark Insurance Holdings offers" in page
    count = re.search(r'<span class="visually-hidden">unread: </span>(\d+)<', page)
    assert count is not None and int(count.group(1)) == 2  # the certificate and the offer
    ids = re.findall(r'id="notification-(ntf_[0-9a-f]+)"', page)
    for note in ids:
        post_form(seller, "/notifications", f"/notifications/{note}/read", {})
    assert "unread: </span>" not in seller.get("/notifications").get_data(as_text=True)
    other = browser(app, "participant", m.buyer["id"])
    assert (
        post_form(other, "/notifications", f"/notifications/{ids[0]}/read", {}).status_code == 404
    )


def test_my_sales_pages_older_deals_instead_of_stopping(app: Any, monkeypatch: Any) -> None:
    from market.web import deal_pages

    monkeypatch.setattr(deal_pages, "DEALS_PER_PAGE", 2)
    m = make_market(app)
    listing = m.listing()
    offers = [m.offer(listing["id"], amount=M // 10, price=8 * M // 100) for _ in range(3)]
    seller = browser(app, "participant", m.seller["id"])
    first = seller.get("/deals/selling").get_data(as_text=True)
    shown = re.findall(r'id="deal-(ofr_[0-9a-f]+)"', first)
    assert shown == [offers[2]["id"], offers[1]["id"]]  # newest first
    older = re.search(r'href="(/deals/selling\?after=\d+)">Older deals', first)
    assert older is not None
    second = seller.get(older.group(1)).get_data(as_text=True)
    assert re.findall(r'id="deal-(ofr_[0-9a-f]+)"', second) == [offers[0]["id"]]
    assert "Older deals" not in second
