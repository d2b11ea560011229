"""BR-13 / AMB-10 / TB-40 over the API, on SQLite and PostgreSQL: a recapture is assessed
on the business the credit was issued to and the fund follows that business's tax type.
That it is never assessed on a buyer (`recapture_not_allowed`) is held by
tests/unit/services/certificates/test_recaptures.py."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market
from tests.helpers import sell_and_approve

M = 100_000_000


def test_the_fund_follows_the_business_and_the_buyer_keeps_its_credit(client: Any) -> None:
    m = Market(client, seller_types=["GIT"], entity_type="llc")
    cert = m.issue(program="BRRAG", face_cents=2 * M, fiscal_year=2014)
    bought = sell_and_approve(client, m.seller_h, m.auth, cert["id"], m.buyer["id"], M, M)
    r = m.post(
        "/api/v1/recaptures",
        m.auth,
        {
            "party_id": m.seller["id"],
            "certificate_id": cert["id"],
            "amount_cents": 1000,
            "reason": "Jobs not retained",
        },
    )
    assert r.status_code == 201, r.json
    assert r.json["fund"] == "property_tax_relief_fund"  # a GIT business (BR-13)
    assert m.cert(bought)["balance_cents"] == M  # the buyer keeps what it bought
