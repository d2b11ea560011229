"""Closing from the pages (ADM-8, ADM-12), on SQLite and PostgreSQL: the Authority's
approval of a TECH sale is its final approval. Refused in words while the executed
selling agreement is missing and while the seller has no tax clearance (nothing written);
the seller files the agreement from the deal's page, the Authority records the clearance
(review, then confirm) and approves; the buyer holds the certificate it bought."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from tests.e2e.test_casefile_transfer_api import FACTS, tech_certificate_2024
from tests.e2e.test_pages_support import browser, confirm_form, post_form
from tests.helpers import create_party, events, headers_for, propose_and_confirm
from tests.unit.services.casefiles.test_media_types import PDF

pytestmark = pytest.mark.storage


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html[:500]
    return found.group(1)


def test_a_tech_sale_closes_from_the_pages(app: Any, market_today: Any) -> None:
    market_today("2025-03-03")
    api, engine = app.test_client(), app.extensions["market.engine"]
    authority_h = headers_for(api, engine, "authority")
    seller = create_party(api, authority_h, name="Closing Bio", **FACTS)
    buyer = create_party(api, authority_h, name="Closing Buyer Corp", tax_types=["CBT"])
    seller_h = headers_for(api, engine, "participant", seller["id"])
    cert = tech_certificate_2024(engine, seller["id"], 1_000_000)
    transfer = propose_and_confirm(api, seller_h, cert, buyer["id"], 500_000, 450_000)
    tid = transfer["id"]
    eda = browser(app, "authority")
    seller_web = browser(app, "participant", seller["id"])
    approve = f"/authority/transfers/{tid}/approve"

    before = events(engine)
    r = post_form(eda, "/authority", approve, {})
    assert r.status_code == 422 and "executed selling agreement" in r.get_data(as_text=True)
    assert events(engine) == before

    deal = f"/deals/transfers/{tid}"
    page = seller_web.get(deal).get_data(as_text=True)
    assert f'id="upload-{tid}"' in page and "executed_selling_agreement" in page
    filed = seller_web.post(
        "/documents/upload",
        data={
            "csrf_token": _csrf(page),
            "kind": "executed_selling_agreement",
            "subject_type": "transfer",
            "subject_id": tid,
            "back": deal,
            "file": (io.BytesIO(PDF), "agreement.pdf"),
        },
        content_type="multipart/form-data",
    )
    assert filed.status_code == 302 and filed.headers["Location"].endswith(deal)
    assert events(engine) == before + 1

    r = post_form(eda, "/authority", approve, {})
    assert r.status_code == 422 and "tax clearance" in r.get_data(as_text=True)
    assert events(engine) == before + 1  # the refusal wrote nothing
    clearance = {
        "party_id": seller["id"],
        "certificate_number": "TCC-9",
        "program": "TECH",
        "issued_on": "2025-02-01",
        "renews": "",
    }
    fees_page = f"/fees?party_id={seller['id']}"
    assert confirm_form(eda, fees_page, "/tax-clearances", clearance).status_code == 302

    done = confirm_form(eda, "/authority", approve, {})
    assert done.status_code == 302
    assert "approved" in eda.get(done.headers["Location"]).get_data(as_text=True)
    after = api.get(f"/api/v1/transfers/{tid}", headers=seller_h).json
    assert after["status"] == "approved"
    assert after["checklist"][0]["satisfied"] is True
    held = api.get(f"/api/v1/certificates/{after['buyer_certificate_id']}", headers=authority_h)
    assert held.json["holder_party_id"] == buyer["id"]
    assert held.json["face_cents"] == 500_000
