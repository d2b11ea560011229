"""The seller's and the buyer's pages, the TECH allocation page and the transfers report."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest

from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import create_party, events

TECH_FACTS = {
    "us_employees": 40,
    "nj_full_time_employees": 12,
    "formed_on": "2006-03-01",
    "operating_income_cents_by_year": {"2010": -500_000, "2011": -100_000},
}
PAGES = {
    "/seller": ("participant",),
    "/buyer": ("participant",),
    "/authority": ("authority",),
    "/authority/allocations/2014": ("authority",),
    "/reports/transfers": ("authority", "auditor"),
    "/reports/transfers.csv": ("authority", "auditor"),
    "/market": ("authority", "participant", "auditor"),
}


@pytest.mark.parametrize("path", sorted(PAGES))
def test_each_page_answers_its_roles_and_refuses_the_others(app: Any, path: str) -> None:
    m = make_market(app)
    assert app.test_client().get(path).status_code == 302
    for role in ("authority", "participant", "auditor"):
        party = m.seller["id"] if role == "participant" else None
        r = browser(app, role, party).get(path)
        assert r.status_code == (200 if role in PAGES[path] else 403), (path, role)


def _approved(m: Any) -> dict[str, Any]:
    transfer = m.pending_transfer()
    m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.eda, {})
    return transfer


# ---- seller ---------------------------------------------------------------------------


def test_the_seller_lists_and_sees_its_listing(app: Any) -> None:
    m = make_market(app)
    seller = browser(app, "participant", m.seller["id"])
    html = seller.get("/seller").get_data(as_text=True)
    assert m.cert["number"] in html and "$2,000,000.00" in html and "original" in html
    data = {"certificate_id": m.cert["id"], "amount": "500,000.00", "per_dollar": "90"}
    r = post_form(seller, "/seller", "/seller/listings", data)
    assert r.status_code == 302
    html = seller.get("/seller").get_data(as_text=True)
    assert "Listed $500,000.00" in html and "Withdraw" in html and "90¢ per $1" in html


def test_listing_more_than_the_balance_is_refused_in_words(app: Any) -> None:
    m = make_market(app)
    seller = browser(app, "participant", m.seller["id"])
    before = events(app.extensions["market.engine"])
    data = {"certificate_id": m.cert["id"], "amount": "3000000", "per_dollar": "90"}
    r = post_form(seller, "/seller", "/seller/listings", data)
    assert r.status_code == 422
    assert "has $2,000,000.00 usable; $3,000,000.00 was asked for" in r.get_data(as_text=True)
    assert events(app.extensions["market.engine"]) == before


def test_the_seller_accepts_an_offer_and_declines_another(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    first, second = m.offer(listing["id"], M // 2), m.offer(listing["id"], M // 4)
    seller = browser(app, "participant", m.seller["id"])
    html = seller.get("/seller").get_data(as_text=True)
    assert "Newark Insurance Holdings" in html and html.count("Accept</button>") == 2
    before = events(app.extensions["market.engine"])
    review = post_form(seller, "/seller", f"/seller/offers/{first['id']}/accept", {})
    assert review.status_code == 200 and "Confirm: accept the offer" in review.get_data(
        as_text=True
    )
    assert events(app.extensions["market.engine"]) == before  # the review wrote nothing
    accepted = confirm_form(seller, "/seller", f"/seller/offers/{first['id']}/accept", {})
    assert accepted.status_code == 302 and "/deals/transfers/" in accepted.headers["Location"]
    assert "awaits the Authority" in seller.get("/seller").get_data(as_text=True)
    assert (
        post_form(seller, "/seller", f"/seller/offers/{second['id']}/decline", {}).status_code
        == 302
    )
    html = seller.get("/seller").get_data(as_text=True)
    assert "accepted" in html and "declined" in html and "Accept</button>" not in html


def test_the_seller_attests_what_the_proceeds_fund_when_accepting(app: Any) -> None:
    """BR-14: the BRRAG accept form offers the statute's uses; the transfer records them."""
    m = make_market(app)
    offer = m.offer(m.listing()["id"], M // 2)
    seller = browser(app, "participant", m.seller["id"])
    html = seller.get("/seller").get_data(as_text=True)
    assert "What the proceeds fund (BR-14, TB-25)" in html
    assert 'value="tenant_fit_out"> tenant fit-out' in html
    uses = {"use_of_proceeds": ["salaries", "materials"]}
    r = confirm_form(seller, "/seller", f"/seller/offers/{offer['id']}/accept", uses)
    assert r.status_code == 302
    [transfer] = m.api.get("/api/v1/transfers", headers=m.eda).json["items"]
    assert transfer["use_of_proceeds"] == ["materials", "salaries"]
    before = events(app.extensions["market.engine"])
    other = m.offer(m.listing()["id"], M // 4)
    bad = {"use_of_proceeds": ["yachts"]}
    r = post_form(seller, "/seller", f"/seller/offers/{other['id']}/accept", bad)
    assert r.status_code == 422
    assert "yachts is not a use of proceeds BR-14 names" in r.get_data(as_text=True)
    assert events(app.extensions["market.engine"]) == before + 2  # the listing and the offer


def test_another_participant_cannot_accept_the_sellers_offer(app: Any) -> None:
    m = make_market(app)
    offer = m.offer(m.listing()["id"])
    buyer = browser(app, "participant", m.buyer["id"])
    r = post_form(buyer, "/seller", f"/seller/offers/{offer['id']}/accept", {})
    # As if the offer did not exist (no existence oracle; was 403 "only act for your own party").
    assert r.status_code == 404 and f"Offer {offer['id']} does not exist" in r.get_data(
        as_text=True
    )


def test_the_seller_sees_what_it_has_been_paid(app: Any) -> None:
    m = make_market(app)
    _approved(m)
    html = browser(app, "participant", m.seller["id"]).get("/seller").get_data(as_text=True)
    assert "$800,000.00</span> received for 1 approved transfer" in html


def test_the_seller_applies_for_tech_and_sees_the_status(app: Any, market_today: Any) -> None:
    market_today("2013-03-15")  # the receipt is stamped on the business date (TB-6)
    api = app.test_client()
    m = make_market(app)
    startup = create_party(api, m.eda, name="Hoboken Quantum", **TECH_FACTS)
    seller = browser(app, "participant", startup["id"])
    data = {
        "nol": "0",
        "allocation_factor": "1",
        "regime": "CBT",
        "rnd": "100,000",
    }
    review = post_form(seller, "/seller", "/seller/tech", data)
    assert review.status_code == 200
    assert "benefit $100,000.00, eligible" in review.get_data(as_text=True)  # rehearsed
    r = confirm_form(seller, "/seller", "/seller/tech", data)
    assert r.status_code == 302 and "/deals/tech/" in r.headers["Location"]
    deal = seller.get(r.headers["Location"]).get_data(as_text=True)
    assert "TECH application received for FY 2013" in deal and "eligible" in deal
    assert "awaiting the FY allocation" in seller.get("/seller").get_data(as_text=True)


# ---- buyer ----------------------------------------------------------------------------


def test_the_buyer_sees_its_holding_with_the_carryover_window(app: Any) -> None:
    m = make_market(app)
    _approved(m)
    html = browser(app, "participant", m.buyer["id"]).get("/buyer").get_data(as_text=True)
    assert f"{m.cert['number']}-T" in html and "$1,000,000.00" in html
    assert "tax year 20" in html  # the last year it may be carried to


def test_the_buyer_applies_a_credit_and_sees_what_carries_forward(app: Any) -> None:
    m = make_market(app)
    _approved(m)
    buyer = browser(app, "participant", m.buyer["id"])
    page = buyer.get("/buyer").get_data(as_text=True)
    cert_id = page.split('name="certificate_id" required>', 1)[1].split('value="', 1)[1][:24]
    data = {
        "certificate_id": cert_id.split('"')[0],
        "tax_type": "CBT",
        "tax_year": "2014",
        "liability": "400,000",
        "other_credits": "0",
        "amount": "1000000",
    }
    r = confirm_form(buyer, "/buyer", "/buyer/returns", data)
    assert r.status_code == 302
    html = buyer.get("/buyer").get_data(as_text=True)
    assert "carries forward" in html and "limited by" in html
    assert (
        "Applied $400,000.00 to the 2014 CBT return, limited by the tax liability after other "
        "credits; $600,000.00 carries forward." in html
    )
    table = html.split("<h2>Applied to returns</h2>", 1)[1]
    assert "$400,000.00" in table and "$600,000.00" in table


def test_a_credit_on_a_tax_the_holder_does_not_file_is_refused(app: Any) -> None:
    m = make_market(app)
    _approved(m)
    buyer = browser(app, "participant", m.buyer["id"])
    page = buyer.get("/buyer").get_data(as_text=True)
    cert_id = page.split('name="certificate_id" required>', 1)[1].split('value="', 1)[1]
    data = {
        "certificate_id": cert_id.split('"')[0],
        "tax_type": "GIT",
        "tax_year": "2014",
        "liability": "400000",
        "amount": "1000",
    }
    r = post_form(buyer, "/buyer", "/buyer/returns", data)
    assert r.status_code == 422 and "not registered for GIT" in r.get_data(as_text=True)


def test_a_partnership_passes_its_credit_through_to_owners(app: Any) -> None:
    api = app.test_client()
    m = make_market(app)
    firm = create_party(api, m.eda, name="Princeton Partners LP", entity_type="partnership")
    a = create_party(api, m.eda, name="Partner A")
    b = create_party(api, m.eda, name="Partner B")
    for owner, share in ((a, 6000), (b, 4000)):
        m.post(
            f"/api/v1/parties/{firm['id']}/owners",
            m.eda,
            {
                "owner_party_id": owner["id"],
                "voting_bps": share,
                "value_bps": share,
                "income_share_bps": share,
            },
        )
    m.buyer = firm
    from tests.helpers import headers_for

    m.buyer_h = headers_for(api, app.extensions["market.engine"], "participant", firm["id"])
    _approved(m)
    partner = browser(app, "participant", firm["id"])
    page = partner.get("/buyer").get_data(as_text=True)
    assert "Pass through to your owners" in page
    cert_id = page.split('name="certificate_id" required>', 1)[1].split('value="', 1)[1]
    r = post_form(
        partner, "/buyer", "/buyer/pass-through", {"certificate_id": cert_id.split('"')[0]}
    )
    assert r.status_code == 302
    html = partner.get("/buyer").get_data(as_text=True)
    assert "Partner A $600,000.00" in html and "Partner B $400,000.00" in html


def test_a_corporation_gets_no_pass_through_form(app: Any) -> None:
    m = make_market(app)
    html = browser(app, "participant", m.buyer["id"]).get("/buyer").get_data(as_text=True)
    assert "Pass through to your owners" not in html


# ---- TECH allocation -----------------------------------------------------------------


def test_the_allocation_page_previews_commits_and_charts_the_cap(app: Any) -> None:
    api = app.test_client()
    m = make_market(app)
    startup = create_party(api, m.eda, name="Hoboken Quantum", **TECH_FACTS)
    m.post(
        "/api/v1/tech/applications",
        m.eda,
        {
            "party_id": startup["id"],
            "received_on": "2014-03-15",
            "receipt_reason": "Paper filing received by mail",
            "nol_cents": 0,
            "allocation_factor": "1",
            "seller_tax_regime": "CBT",
            "rnd_credit_cents": 100_000_00,
            "in_innovation_zone": True,
        },
    )
    eda = browser(app, "authority")
    r = eda.get("/authority/allocations")
    assert r.status_code == 302 and r.headers["Location"].endswith("/authority/allocations/2014")
    html = eda.get("/authority/allocations/2014").get_data(as_text=True)
    assert "Preview (nothing is committed yet)" in html and "Hoboken Quantum" in html
    assert "<svg" in html and "Innovation zone set-aside" in html and "$100,000.00" in html
    page, action = "/authority/allocations/2014", "/authority/allocations/2014/commit"
    review = post_form(eda, page, action, {}).get_data(as_text=True)
    assert "Hoboken Quantum" in review and "Total" in review and "$100,000.00" in review
    assert "preview (nothing is committed yet)" in eda.get(page).get_data(as_text=True).lower()
    r = confirm_form(eda, page, action, {})
    assert r.status_code == 302
    html = eda.get("/authority/allocations/2014").get_data(as_text=True)
    assert "FY 2014 allocation committed: $100,000.00 in 1 TECH certificates" in html
    assert "The committed allocation" in html and "Commit the FY" not in html
    r = post_form(eda, page, action, {"confirm": "yes", "expected_total_cents": "0"})
    assert r.status_code == 409 and "already been committed" in r.get_data(as_text=True)


def test_committing_an_empty_year_is_refused_in_words(app: Any) -> None:
    make_market(app)
    eda = browser(app, "authority")
    r = post_form(eda, "/authority/allocations/2012", "/authority/allocations/2012/commit", {})
    assert r.status_code == 422 and "no eligible TECH applications" in r.get_data(as_text=True)


# ---- transfers report ------------------------------------------------------------------


def test_the_transfers_report_charts_tabulates_and_downloads(app: Any) -> None:
    m = make_market(app)
    _approved(m)
    auditor = browser(app, "auditor")
    html = auditor.get("/reports/transfers").get_data(as_text=True)
    # No inline script anywhere (the chart's tooltips are stripped); only the static file.
    assert "<svg" in html and re.findall(r"<script[^>]*>", html) == [
        '<script src="/static/app.js" defer>'
    ]
    assert "Camden Robotics" in html and "80¢ per $1" in html and "/reports/transfers.csv" in html
    r = auditor.get("/reports/transfers.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    api = m.api.get("/api/v1/reports/transfers.csv", headers=m.eda)
    assert r.get_data(as_text=True) == api.get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(r.get_data(as_text=True))))
    assert rows[0]["ratio"] == "0.8" and rows[0]["status"] == "approved"
