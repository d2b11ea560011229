"""The desk forms that have an API twin validate with the API's own schema, as in
test_pages_form_schemas.py: $0 on the return, pass-through, TECH and recapture forms and an
over-long rejection reason are refused beside the field with the API's words, nothing is
written, and a valid post writes exactly its event."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_pages_form_schemas import (
    ZERO,
    api_messages,
    assert_marked,
    business_day,
    types_after,
)
from tests.e2e.test_pages_support import M, browser, confirm_form, make_market, post_form
from tests.helpers import create_party, events, headers_for

__all__ = ["business_day"]  # the business date fixture, autouse here too


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
    r = confirm_form(buyer, "/buyer", "/buyer/returns", data | {"amount": "1000000"})
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
    r = confirm_form(seller, "/seller", "/seller/tech", data | {"requested": ""})
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
