"""Irreversible actions: nothing is picked for the person, the review names exactly what will
be written and writes nothing, and only the confirmation writes; wrong affordances gone."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from market.services.kernel import clock
from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import create_party, events

RECAPTURE = "/authority/recaptures"


def test_the_recapture_and_issue_forms_choose_no_party_for_you(app: Any) -> None:
    make_market(app)
    html = browser(app, "authority").get("/authority").get_data(as_text=True)
    assert '<option value="">Choose…</option>' in html
    assert 'list="party-choices"' in html
    assert '<datalist id="party-choices" data-choices-url="/pickers/parties">' in html
    assert "Camden Robotics · " in html  # offered by name and tax id
    assert "selected" not in html.split('id="issue"', 1)[1].split("</section>", 1)[0]


def test_a_recapture_review_names_the_party_and_writes_nothing(app: Any) -> None:
    m = make_market(app)
    eda, engine = browser(app, "authority"), app.extensions["market.engine"]
    before = events(engine)
    data = {
        "party": f"Camden Robotics · {m.seller['tax_id']}",
        "certificate": m.cert["number"],
        "amount": "1,000",
        "reason": "Jobs not retained",
    }
    review = post_form(eda, "/authority", RECAPTURE, data)
    page = review.get_data(as_text=True)
    assert review.status_code == 200 and events(engine) == before
    assert f"Camden Robotics · {m.seller['tax_id']}" in page and "$1,000.00" in page
    assert m.cert["number"] in page and "Confirm: assess the recapture" in page
    assert confirm_form(eda, "/authority", RECAPTURE, data).status_code == 302
    assert events(engine) == before + 1


def test_a_recapture_without_a_party_is_refused_at_the_field(app: Any) -> None:
    make_market(app)
    eda, engine = browser(app, "authority"), app.extensions["market.engine"]
    before = events(engine)
    r = post_form(
        eda,
        "/authority",
        RECAPTURE,
        {"party": "", "program": "BRRAG", "amount": "10", "reason": "x", "confirm": "yes"},
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and events(engine) == before
    assert (
        'aria-invalid="true" aria-describedby="recapture-party-hint recapture-party-error"' in page
    )
    assert 'id="recapture-party-error">Choose the party from the list.' in page


def test_a_name_two_parties_share_is_refused_not_guessed(app: Any) -> None:
    m = make_market(app)
    create_party(m.api, m.eda, name="Camden Robotics")  # same name, another tax id
    r = post_form(
        browser(app, "authority"),
        "/authority",
        RECAPTURE,
        {"party": "camden robotics", "program": "BRRAG", "amount": "10", "reason": "x"},
    )
    assert r.status_code == 400 and "2 parties match" in r.get_data(as_text=True)


def test_an_amount_of_zero_is_refused_as_the_api_refuses_it(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    r = post_form(
        eda,
        "/authority",
        "/authority/certificates",
        {"program": "BRRAG", "holder": m.buyer["id"], "face": "0", "fiscal_year": "2015"},
    )
    assert r.status_code == 400
    assert 'id="issue-face-error">The face amount must be more than $0.00.' in r.get_data(
        as_text=True
    )
    api = m.api.post(
        "/api/v1/certificates",
        headers=m.eda,
        json={
            "program": "BRRAG",
            "holder_party_id": m.buyer["id"],
            "face_cents": 0,
            "fiscal_year": 2015,
        },
    )
    assert api.status_code == 400


def test_an_issue_without_a_program_is_refused(app: Any) -> None:
    m = make_market(app)
    r = post_form(
        browser(app, "authority"),
        "/authority",
        "/authority/certificates",
        {"program": "", "holder": m.buyer["id"], "face": "10", "fiscal_year": "2015"},
    )
    assert r.status_code == 400 and 'id="issue-program-error">Choose the program.' in r.get_data(
        as_text=True
    )


def test_a_rejection_is_reviewed_before_it_is_written(app: Any) -> None:
    m = make_market(app)
    transfer = m.pending_transfer()
    eda, engine = browser(app, "authority"), app.extensions["market.engine"]
    before = events(engine)
    action = f"/authority/transfers/{transfer['id']}/reject"
    page = post_form(eda, "/authority", action, {"reason": "No agreement"}).get_data(as_text=True)
    assert "Reject this transfer" in page and "No agreement" in page and events(engine) == before
    assert "Camden Robotics" in page and "Newark Insurance Holdings" in page


def test_the_seller_reviews_a_withdrawal_first(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    seller, engine = browser(app, "participant", m.seller["id"]), app.extensions["market.engine"]
    before = events(engine)
    action = f"/seller/listings/{listing['id']}/withdraw"
    page = post_form(seller, "/seller", action, {}).get_data(as_text=True)
    assert "Confirm: withdraw the listing" in page and "$1,000,000.00" in page
    assert events(engine) == before
    assert confirm_form(seller, "/seller", action, {}).status_code == 302
    assert events(engine) == before + 1
    assert "No open listings." in seller.get("/seller").get_data(as_text=True)


def test_another_party_cannot_review_a_withdrawal(app: Any) -> None:
    m = make_market(app)
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    r = post_form(buyer, "/market", f"/seller/listings/{listing['id']}/withdraw", {})
    assert r.status_code == 403


def test_the_commit_button_waits_for_intake_to_close(app: Any) -> None:
    m = make_market(app)
    startup = create_party(
        m.api,
        m.eda,
        name="Hoboken Quantum",
        us_employees=40,
        nj_full_time_employees=12,
        formed_on="2006-03-01",
        operating_income_cents_by_year={"2010": -500_000, "2011": -100_000},
    )
    clock.configure(date(2014, 3, 20))
    try:
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
            },
        )
        html = browser(app, "authority").get("/authority/allocations/2014").get_data(as_text=True)
    finally:
        clock.configure(None)
    assert "The allocation can be committed from 2014-07-01." in html
    assert "Commit the FY 2014 allocation" not in html


def test_an_insurer_is_not_offered_the_tech_surrender_form(app: Any) -> None:
    m = make_market(app)
    insurer = create_party(
        m.api, m.eda, name="Trenton Mutual", entity_type="insurance_company", tax_types=["IPT"]
    )
    html = browser(app, "participant", insurer["id"]).get("/seller").get_data(as_text=True)
    assert "/seller/tech" not in html
    seller = browser(app, "participant", m.seller["id"]).get("/seller").get_data(as_text=True)
    assert 'action="/seller/tech"' in seller


def test_the_queue_reads_per_dollar_of_the_amount_sold(app: Any) -> None:
    m = make_market(app)
    m.pending_transfer()
    html = browser(app, "authority").get("/authority").get_data(as_text=True)
    assert "(80¢ per $1)" in html and "of face" not in html
    assert M  # the support module's million


def test_a_refused_amount_is_tied_to_its_field_on_the_desks(app: Any) -> None:
    m = make_market(app)
    seller = browser(app, "participant", m.seller["id"])
    r = post_form(
        seller,
        "/seller",
        "/seller/listings",
        {"certificate_id": m.cert["id"], "amount": "12.345", "per_dollar": "10"},
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    assert (
        'id="list-amount" name="amount"' in page and 'aria-describedby="list-amount-error"' in page
    )
    assert 'id="list-amount-error">The amount of credit has more than two decimals' in page
    listing = m.listing()
    buyer = browser(app, "participant", m.buyer["id"])
    r = post_form(
        buyer,
        "/market",
        "/market/offers",
        {"listing_id": listing["id"], "amount": "1000", "per_dollar": "lots"},
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    assert f'aria-describedby="price-{listing["id"]}-hint price-{listing["id"]}-error"' in page


def test_the_issuing_review_runs_the_rules_before_confirm(app: Any) -> None:
    """Issue 28: a $250,000 face against a $150,000 award passed the review and was
    refused only at Confirm. The review now rehearses the issuance."""
    m = make_market(app)
    eda = browser(app, "authority")
    before = events(app.extensions["market.engine"])
    r = post_form(
        eda,
        "/authority",
        "/authority/certificates",
        {
            "program": "BRRAG",
            "holder": f"Newark Insurance Holdings · {m.buyer['tax_id']}",
            "face": "250,000",
            "fiscal_year": "2015",
            "retained_jobs": "100",  # $150,000 a year (BR-6)
            "nj_operations_since": "1999-05-01",
            "cannot_use_before_expiry": "yes",
        },
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "Review before you confirm" not in page
    assert "$150,000.00" in page
    assert events(app.extensions["market.engine"]) == before


def test_a_refused_form_has_a_summary_linking_each_field(app: Any) -> None:
    """GOV.UK's error summary: at the top, each message a link to its field's message."""
    make_market(app)
    eda = browser(app, "authority")
    r = post_form(
        eda,
        "/authority",
        "/authority/certificates",
        {"program": "BRRAG", "holder": "", "face": "0", "fiscal_year": "2015"},
    )
    page = r.get_data(as_text=True)
    assert r.status_code == 400
    summary = page.split('class="error-summary"', 1)[1].split("</div>", 1)[0]
    links = re.findall(r'<a href="#problem-([a-z_]+)">', summary)
    assert "face" in links
    for name in links:  # each link lands on its field's message, once on the page
        assert page.count(f'id="problem-{name}"') == 1


def test_the_issuing_review_carries_the_holder_in_words_not_its_id(app: Any) -> None:
    """Issue 28 item 4: a refused confirm came back with the holder field as a raw id."""
    m = make_market(app)
    eda = browser(app, "authority")
    typed = f"Newark Insurance Holdings · {m.buyer['tax_id']}"
    review = post_form(
        eda,
        "/authority",
        "/authority/certificates",
        {
            "program": "BRRAG",
            "holder": typed,
            "face": "100,000",
            "fiscal_year": "2015",
            "retained_jobs": "100",
            "nj_operations_since": "1999-05-01",
            "cannot_use_before_expiry": "yes",
        },
    )
    page = review.get_data(as_text=True)
    assert review.status_code == 200
    assert 'name="holder" value="Newark Insurance Holdings · ' in page
    assert f'name="holder" value="{m.buyer["id"]}"' not in page
