"""PT-7 / AMB-53 over the API, on SQLite and PostgreSQL: under the Director's exception,
which only the Authority records and only for an individual, an individual buys directly.
Its refusal without one (`individual_purchase_not_allowed`, for DM_GIT, UTH and BRRAG) is
held by tests/unit/services/trading/test_sale_rules.py."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market
from tests.helpers import create_party, headers_for

M = 100_000_000


def test_an_individual_buys_dm_git_only_under_the_directors_exception(client: Any) -> None:
    m = Market(client, seller_types=["GIT"])
    cert = m.issue(program="DM_GIT", face_cents=M, fiscal_year=2014)
    ann = create_party(
        client, m.auth, name="Ann Investor", entity_type="individual", tax_types=["GIT"]
    )
    ann_h = headers_for(client, m.engine, "participant", ann["id"])
    listing = m.list_(cert["id"], M // 2, M // 2)
    r = m.post(
        f"/api/v1/parties/{ann['id']}/director-exception",
        m.auth,
        {"reason": "Director's letter of 2014-05-02"},
    )
    assert r.status_code == 201, r.json
    assert r.json["director_exception"] == "Director's letter of 2014-05-02"
    ok = m.offer(listing["id"], M // 4, M // 4, headers=ann_h)
    assert ok.status_code == 201, ok.json
    # Only for individuals, and only the Authority records it.
    firm = m.post(f"/api/v1/parties/{m.buyer['id']}/director-exception", m.auth, {"reason": "x"})
    assert firm.status_code == 422 and firm.json["error"]["code"] == "invalid_request"
    mine = m.post(f"/api/v1/parties/{ann['id']}/director-exception", ann_h, {"reason": "x"})
    assert mine.status_code == 403


def test_an_individual_needs_the_exception_for_uth_and_brrag_too(client: Any) -> None:
    """Issue 26: an individual without the exception bought a UTH certificate, and a
    BRRAG transfer to one was proposed; §40 reaches their GIT use (AMB-58)."""
    m = Market(client, seller_types=["GIT"])
    uth = m.issue(program="UTH", face_cents=24 * M, fiscal_year=2014, tax_periods=[2013])
    brrag = m.issue(program="BRRAG", face_cents=M, fiscal_year=2014, credit_year=2014)
    bob = create_party(client, m.auth, name="Bob Investor", entity_type="individual")
    bob_h = headers_for(client, m.engine, "participant", bob["id"])
    listing = m.list_(uth["id"], 240 * 10**6, 190 * 10**6)
    r = m.post(f"/api/v1/parties/{bob['id']}/director-exception", m.auth, {"reason": "letter"})
    assert r.status_code == 201, r.json
    offer = m.offer(listing["id"], 240 * 10**6, 190 * 10**6, headers=bob_h)
    assert offer.status_code == 201, offer.json
    transfer = m.post(f"/api/v1/offers/{offer.json['id']}/accept", m.seller_h).json["transfer"]
    approved = m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth)
    assert approved.status_code == 200, approved.json
    assert m.negotiate(brrag["id"], M, M, buyer_id=bob["id"]).status_code == 201
