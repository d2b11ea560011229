"""ADM-3 at UTH's steps over the API, on SQLite and PostgreSQL: issuing the certificate
invoices the two 0.5% fees (at approval and before the certificate), each capped at
$300,000; an annual review invoices $2,500 once per tax period; proposing a sale
invoices the $2,500 transfer certificate application fee; the sale's final approval
waits until the award's and the transfer's fees are paid. In the bill's era none is."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine

from tests.e2e.test_casefile_tech_api import refused
from tests.helpers import create_party, events, headers_for, propose_and_confirm

pytestmark = pytest.mark.storage
M = 100_000_000  # $1,000,000 in cents


def _issue(client: Any, authority: dict[str, str], holder: str, face: int) -> Any:
    body = {
        "program": "UTH",
        "holder_party_id": holder,
        "face_cents": face,
        "fiscal_year": 2025,
        "tax_periods": [2024],
    }
    return client.post("/api/v1/certificates", json=body, headers=authority)


def _fees(client: Any, h: dict[str, str], party_id: str) -> dict[str, dict[str, Any]]:
    items = client.get(f"/api/v1/fees?party_id={party_id}", headers=h).json["items"]
    return {f"{f['kind']}@{f['subject_id']}": f for f in items}


def test_each_uth_step_invoices_its_fee_and_the_sale_waits_for_them(
    client: Any, engine: Engine, market_today: Any
) -> None:
    market_today("2025-03-03")
    authority = headers_for(client, engine, "authority")
    seller = create_party(client, authority, name="Hub Fees Co")
    buyer = create_party(client, authority, name="Hub Fees Buyer", tax_types=["CBT"])
    seller_h = headers_for(client, engine, "participant", seller["id"])
    before = events(engine)
    made = _issue(client, authority, seller["id"], 24 * M)
    assert made.status_code == 201, made.json
    cert = made.json["id"]
    fees = _fees(client, seller_h, seller["id"])
    # 0.5% of $24,000,000 is $120,000, under the $300,000 cap
    assert {k: (f["amount_cents"], f["due_cents"]) for k, f in fees.items()} == {
        f"uth_approval@{cert}": (12_000_000, 12_000_000),
        f"uth_certificate@{cert}": (12_000_000, 12_000_000),
    }
    assert events(engine) == before + 4  # CERT_ISSUED, CAP_CHARGED and the two fees

    review = client.post(
        f"/api/v1/certificates/{cert}/reviews",
        json={"tax_period": 2024, "finding": "approved"},
        headers=authority,
    )
    assert review.status_code == 201, review.json
    again = client.post(
        f"/api/v1/certificates/{cert}/reviews",
        json={"tax_period": 2024, "finding": "approved"},
        headers=authority,
    )
    assert again.status_code == 201
    fees = _fees(client, seller_h, seller["id"])
    assert fees[f"uth_annual_review@{cert}:2024"]["amount_cents"] == 250_000
    assert len(fees) == 3  # the same period reviewed twice owes one fee

    transfer = propose_and_confirm(client, seller_h, cert, buyer["id"], 1 * M, 80 * M // 100)
    fees = _fees(client, seller_h, seller["id"])
    assert fees[f"uth_transfer@{transfer['id']}"]["amount_cents"] == 250_000
    clearance = {"certificate_number": "TCC-U1", "issued_on": "2025-03-01", "program": "UTH"}
    url = f"/api/v1/parties/{seller['id']}/tax-clearances"
    assert client.post(url, json=clearance, headers=authority).status_code == 201
    approve = f"/api/v1/transfers/{transfer['id']}/approve"
    pay = {"method": "wire", "reference": "W", "received_on": "2025-03-03"}
    award_fees = [fees[f"uth_approval@{cert}"], fees[f"uth_certificate@{cert}"]]
    for fee in [fees[f"uth_transfer@{transfer['id']}"], *award_fees]:
        before = events(engine)
        details = refused(client.post(approve, json={}, headers=authority), 422, "fees_unpaid")
        assert fee["id"] in details["fee_ids"]
        assert events(engine) == before
        paid = client.post(
            f"/api/v1/fees/{fee['id']}/payments",
            json=pay | {"amount_cents": fee["due_cents"]},
            headers=authority,
        )
        assert paid.status_code == 201, paid.json
    ok = client.post(approve, json={}, headers=authority)
    assert ok.status_code == 200 and ok.json["status"] == "approved", ok.json


def test_no_uth_fee_in_the_bills_era(client: Any, engine: Engine) -> None:
    authority = headers_for(client, engine, "authority")
    seller = create_party(client, authority, name="Old Hub Co")
    body = {"program": "UTH", "holder_party_id": seller["id"], "face_cents": 24 * M}
    made = client.post("/api/v1/certificates", json=body | {"fiscal_year": 2014}, headers=authority)
    assert made.status_code == 201, made.json
    assert (
        client.get(f"/api/v1/fees?party_id={seller['id']}", headers=authority).json["items"] == []
    )
