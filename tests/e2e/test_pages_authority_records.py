"""Pages for what was API only (issue 28 item 10): the Authority's paper TECH filing, the
Director's exception and a back-dated exchange date, each reviewed (the review running the
commit's own rules) and then confirmed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_pages_desks import TECH_FACTS
from tests.e2e.test_pages_support import browser, confirm_form, make_market, post_form
from tests.helpers import create_party, events

PAPER = {
    "received_on": "2014-06-30",
    "received_time": "16:45",
    "receipt_reason": "Filed on paper at the front desk",
    "nol": "0",
    "allocation_factor": "1",
    "regime": "CBT",
    "rnd": "100,000",
    "requested": "",
}


@pytest.mark.storage
def test_the_authority_records_a_paper_tech_filing_with_its_receipt(app: Any) -> None:
    m = make_market(app)
    create_party(m.api, m.eda, name="Hoboken Quantum", **TECH_FACTS)
    eda = browser(app, "authority")
    page = "/authority/tech/paper-filing"
    assert eda.get(page).status_code == 200
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = PAPER | {"party": "Hoboken Quantum"}
    review = post_form(eda, page, page, data).get_data(as_text=True)
    assert "Review before you confirm" in review and "Hoboken Quantum" in review
    # The intake's own rules: received on June 30 at 16:45 New York time is FY 2014.
    assert "<dt>Fiscal year it belongs to</dt><dd>FY 2014</dd>" in review
    assert "2014-06-30T16:45:00-04:00" in review
    assert "<dt>Benefit</dt><dd>$100,000.00</dd>" in review
    assert events(engine) == before
    r = confirm_form(eda, page, page, data)
    assert r.status_code == 302 and "/casefiles/tech/" in r.headers["Location"]
    apps = m.api.get("/api/v1/tech/applications", headers=m.eda).json["items"]
    [app_row] = apps
    assert app_row["received_on"] == "2014-06-30" and app_row["fiscal_year"] == 2014
    assert app_row["receipt_reason"] == "Filed on paper at the front desk"


def test_a_paper_filing_without_a_reason_or_in_the_future_writes_nothing(app: Any) -> None:
    m = make_market(app)
    create_party(m.api, m.eda, name="Hoboken Quantum", **TECH_FACTS)
    eda = browser(app, "authority")
    page = "/authority/tech/paper-filing"
    engine = app.extensions["market.engine"]
    before = events(engine)
    r = post_form(eda, page, page, PAPER | {"party": "Hoboken Quantum", "receipt_reason": ""})
    assert r.status_code == 400
    assert 'id="paper-receipt_reason-error"' in r.get_data(as_text=True)
    # A receipt after now (the business date is 2014-09-01): refused by the review, which
    # runs the intake's rule, in words; nothing written.
    late = PAPER | {"party": "Hoboken Quantum", "received_on": "2014-09-30"}
    r = post_form(eda, page, page, late)
    assert r.status_code == 422 and "cannot be recorded for 2014-09-30" in r.get_data(as_text=True)
    r = post_form(eda, page, page, PAPER | {"party": "Nobody Such"})
    assert r.status_code == 400 and 'id="paper-party-error"' in r.get_data(as_text=True)
    assert events(engine) == before


@pytest.mark.storage
def test_the_directors_exception_is_reviewed_then_recorded(app: Any) -> None:
    m = make_market(app)
    ann = create_party(
        m.api, m.eda, name="Ann Example", entity_type="individual", tax_types=["GIT"]
    )
    eda = browser(app, "authority")
    page = "/authority/parties/director-exception"
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"party": "Ann Example", "reason": "Director's letter of 2014-08-02"}
    review = post_form(eda, page, page, data).get_data(as_text=True)
    assert "Review before you confirm" in review and "section 40 ratio is 1" in review
    assert events(engine) == before
    r = confirm_form(eda, page, page, data)
    assert r.status_code == 302
    party = m.api.get(f"/api/v1/parties/{ann['id']}", headers=m.eda).json
    assert party["director_exception"] == "Director's letter of 2014-08-02"
    listed = eda.get(page).get_data(as_text=True)
    assert "Ann Example" in listed and "Director&#39;s letter of 2014-08-02" in listed


def test_a_directors_exception_for_a_business_is_refused_by_the_review(app: Any) -> None:
    m = make_market(app)
    eda = browser(app, "authority")
    page = "/authority/parties/director-exception"
    engine = app.extensions["market.engine"]
    before = events(engine)
    r = post_form(eda, page, page, {"party": "Camden Robotics", "reason": "A letter"})
    assert r.status_code == 422 and "is for an individual buying directly" in r.get_data(
        as_text=True
    )
    r = post_form(eda, page, page, {"party": "Camden Robotics", "reason": ""})
    assert r.status_code == 400 and 'id="exception-reason-error"' in r.get_data(as_text=True)
    assert events(engine) == before
    assert m.seller["id"]


@pytest.mark.storage
def test_a_back_dated_exchange_is_reviewed_on_its_date_then_approved(app: Any) -> None:
    m = make_market(app)
    t = m.pending_transfer()
    eda = browser(app, "authority")
    page = "/authority/exchange-date"
    queue = eda.get("/authority").get_data(as_text=True)
    assert f'href="/authority/exchange-date?transfer_id={t["id"]}"' in queue
    html = eda.get(f"{page}?transfer_id={t['id']}").get_data(as_text=True)
    assert f'<option value="{t["id"]}" selected>' in html
    assert "Camden Robotics to Newark Insurance Holdings" in html
    engine = app.extensions["market.engine"]
    before = events(engine)
    data = {"transfer_id": t["id"], "exchange_date": "2014-08-15"}
    review = post_form(eda, page, page, data).get_data(as_text=True)
    assert "Every check passes on 2014-08-15" in review
    assert events(engine) == before
    r = confirm_form(eda, page, page, data)
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/deals/transfers/{t['id']}")
    got = m.api.get(f"/api/v1/transfers/{t['id']}", headers=m.eda).json
    assert got["status"] == "approved" and got["exchange_date"] == "2014-08-15"


def test_an_exchange_date_after_today_or_refused_by_a_rule_writes_nothing(app: Any) -> None:
    m = make_market(app)
    t = m.pending_transfer()
    eda = browser(app, "authority")
    page = "/authority/exchange-date"
    engine = app.extensions["market.engine"]
    before = events(engine)
    r = post_form(eda, page, page, {"transfer_id": t["id"], "exchange_date": "2014-09-02"})
    assert r.status_code == 400 and 'id="exchange-exchange_date-error"' in r.get_data(as_text=True)
    assert events(engine) == before
    # Approved meanwhile (on the queue): the review runs the approval and meets its refusal.
    m.post(f"/api/v1/transfers/{t['id']}/approve", m.eda, {})
    before = events(engine)
    r = post_form(eda, page, page, {"transfer_id": t["id"], "exchange_date": "2014-08-15"})
    assert r.status_code == 409, r.get_data(as_text=True)[:3000]
    assert "Review before you confirm" not in r.get_data(as_text=True)
    assert events(engine) == before
