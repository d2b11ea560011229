"""Every page that names a certificate links it, by number, where the viewer may open it
(issue 28, item 7); another party's certificate is named in plain text, never a link to a
404."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_covenants_api import TechSales, day  # noqa: F401 (a fixture)
from tests.e2e.test_pages_support import browser
from tests.helpers import UthAward


def link(number: str) -> str:
    return f'<a class="certificate-link" href="/certificates/{number}">{number}</a>'


@pytest.fixture
def sold(client: Any) -> dict[str, Any]:
    world = UthAward(client)
    buyer_cert = world.sell(100_000_000)
    listed = client.post(
        "/api/v1/listings",
        json={"certificate_id": world.id, "amount_cents": 50_000_000, "ask_cents": 40_000_000},
        headers=world.seller_h,
    )
    assert listed.status_code == 201, listed.json
    return {
        "world": world,
        "seller_number": world.award["number"],
        "buyer_number": world.cert(buyer_cert)["number"],
    }


def test_the_ledger_and_the_transfer_report_link_both_certificates(
    app: Any, sold: dict[str, Any]
) -> None:
    ledger = browser(app, "authority").get("/ledger").get_data(as_text=True)
    report = browser(app, "auditor").get("/reports/transfers").get_data(as_text=True)
    for html in (ledger, report):
        assert link(sold["seller_number"]) in html and link(sold["buyer_number"]) in html


def test_the_closing_page_links_each_party_its_own_certificate_only(
    app: Any, sold: dict[str, Any]
) -> None:
    w = sold["world"]
    seller = browser(app, "participant", w.seller["id"]).get("/closing").get_data(as_text=True)
    assert link(sold["seller_number"]) in seller
    assert sold["buyer_number"] in seller and link(sold["buyer_number"]) not in seller
    buyer = browser(app, "participant", w.buyer["id"]).get("/closing").get_data(as_text=True)
    assert link(sold["buyer_number"]) in buyer
    assert sold["seller_number"] in buyer and link(sold["seller_number"]) not in buyer


def test_the_market_links_a_listing_for_its_seller_and_the_authority_only(
    app: Any, sold: dict[str, Any]
) -> None:
    w = sold["world"]
    for who, linked in (("seller", True), ("buyer", False)):
        party = getattr(w, who)["id"]
        html = browser(app, "participant", party).get("/market").get_data(as_text=True)
        assert sold["seller_number"] in html
        assert (link(sold["seller_number"]) in html) is linked, who
    html = browser(app, "authority").get("/market").get_data(as_text=True)
    assert link(sold["seller_number"]) in html


def test_the_desks_link_what_the_party_holds_and_name_a_parent_it_does_not(
    app: Any, sold: dict[str, Any]
) -> None:
    w = sold["world"]
    selling = browser(app, "participant", w.seller["id"]).get("/seller").get_data(as_text=True)
    listings = selling.split("<h2", 3)[-1]  # past the holdings: the listings and offers
    assert link(sold["seller_number"]) in listings
    buyer = browser(app, "participant", w.buyer["id"])
    holdings = buyer.get("/buyer").get_data(as_text=True)
    assert link(sold["buyer_number"]) in holdings
    # The parent is the seller's: named, not linked (the buyer would get a 404).
    row = holdings.split(link(sold["buyer_number"]), 1)[1].split("</tr>", 1)[0]
    assert sold["seller_number"] in row and link(sold["seller_number"]) not in row
    assert buyer.get(f"/certificates/{sold['seller_number']}").status_code == 404


def test_the_covenant_monitor_links_the_certificate_each_sale_came_from(
    client: Any,
    app: Any,
    day: Any,  # noqa: F811
) -> None:
    s = TechSales(client, day)
    day("2016-09-01")
    html = browser(app, "auditor").get("/monitor/covenants").get_data(as_text=True)
    sold_from = client.get(f"/api/v1/transfers/{s.transfers[0]}", headers=s.auth).json[
        "certificate_id"
    ]
    number = client.get(f"/api/v1/certificates/{sold_from}", headers=s.auth).json["number"]
    assert html.count(link(number)) == 2  # both sales came from the one certificate


def test_the_caps_report_links_the_certificates_waiting_in_the_queue(app: Any, client: Any) -> None:
    from tests.helpers import create_party, headers_for

    eda = headers_for(client, app.extensions["market.engine"], "authority")
    studio, other = create_party(client, eda), create_party(client, eda)
    numbers = {}
    for holder in (studio, other):  # $6M and $6M against the $5M DM_CBT pool: both wait
        r = client.post(
            "/api/v1/certificates",
            json={
                "program": "DM_CBT",
                "holder_party_id": holder["id"],
                "face_cents": 600_000_000,
                "fiscal_year": 2014,
            },
            headers=eda,
        )
        assert r.status_code == 201, r.json
        numbers[holder["id"]] = r.json["number"]
    page = "/reports/caps?fiscal_year=2014"
    auditor = browser(app, "auditor").get(page).get_data(as_text=True)
    queue = auditor.split('id="queue"', 1)[1]
    assert link(numbers[studio["id"]]) in queue and link(numbers[other["id"]]) in queue
    own = browser(app, "participant", studio["id"]).get(page).get_data(as_text=True)
    queue = own.split('id="queue"', 1)[1]
    assert link(numbers[studio["id"]]) in queue and numbers[other["id"]] not in queue
