"""The case file from the pages (RULES.md section 7), on SQLite and PostgreSQL: the seller
files its package and submits; the Authority records the fee's payment and the tax
clearance, grants preliminary approval, forwards to Taxation and records the valuation;
each irreversible step reviewed (nothing written) and then confirmed."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from tests.e2e.test_casefile_tech_api import FORWARD, SUBMISSION, seller_and_application
from tests.e2e.test_pages_support import browser, confirm_form, post_form
from tests.helpers import create_party, events, headers_for
from tests.unit.services.casefiles.test_media_types import PDF

pytestmark = pytest.mark.storage


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html[:500]
    return found.group(1)


def file_exhibit(web: Any, app_id: str, kind: str, data: bytes = PDF) -> Any:
    page = f"/casefiles/tech/{app_id}"
    token = _csrf(web.get(page).get_data(as_text=True))
    return web.post(
        "/documents/upload",
        data={
            "csrf_token": token,
            "kind": kind,
            "subject_type": "tech_application",
            "subject_id": app_id,
            "back": page,
            "file": (io.BytesIO(data), f"{kind}.pdf"),
        },
        content_type="multipart/form-data",
    )


def test_the_case_from_the_pages(app: Any, market_today: Any) -> None:
    market_today("2025-03-03")
    api, engine = app.test_client(), app.extensions["market.engine"]
    authority_h = headers_for(api, engine, "authority")
    party, _, application = seller_and_application(api, engine, authority_h, "2025-03-03")
    app_id, page = application["id"], f"/casefiles/tech/{application['id']}"
    seller, eda = browser(app, "participant", party["id"]), browser(app, "authority")

    html = seller.get(page).get_data(as_text=True)
    assert "business plan" in html and "missing" in html and "Next step:" in html
    before = events(engine)
    refused = file_exhibit(seller, app_id, "business_plan", b"<html><body>no</body></html>")
    assert refused.status_code == 302 and events(engine) == before
    assert "Only PDF, PNG, JPEG, CSV and XLSX" in seller.get(page).get_data(as_text=True)
    for kind in SUBMISSION:
        assert file_exhibit(seller, app_id, kind).status_code == 302
    assert events(engine) == before + len(SUBMISSION)

    # the submit step is refused in words while the fee is unpaid
    r = confirm_form(seller, page, f"{page}/submit", {})
    assert r.status_code == 422 and "fees paid first" in r.get_data(as_text=True)
    fees_page = f"/fees?party_id={party['id']}"
    fee_html = eda.get(fees_page).get_data(as_text=True)
    assert "ADM-1" in fee_html and "$1,000.00" in fee_html
    fee_id = re.search(r'id="fee-(fee_[^"]+)"', fee_html).group(1)  # type: ignore[union-attr]
    payment = {
        "party_id": party["id"],
        "amount": "1,000.00",
        "method": "check",
        "reference": "CHK 1001",
        "received_on": "2025-03-03",
    }
    before = events(engine)
    review = post_form(eda, fees_page, f"/fees/{fee_id}/payment", payment)
    assert review.status_code == 200 and events(engine) == before  # the review writes nothing
    assert confirm_form(eda, fees_page, f"/fees/{fee_id}/payment", payment).status_code == 302
    assert events(engine) == before + 1
    clearance = {
        "party_id": party["id"],
        "certificate_number": "TCC-77",
        "program": "TECH",
        "issued_on": "2025-03-01",
        "renews": "",
    }
    assert confirm_form(eda, fees_page, "/tax-clearances", clearance).status_code == 302
    assert "valid until 2025-05-29" in seller.get("/fees").get_data(as_text=True)

    assert confirm_form(seller, page, f"{page}/submit", {}).status_code == 302
    assert "Submitted: 2025-03-03" in seller.get(page).get_data(as_text=True)
    assert seller.post(f"{page}/preliminary", data={}).status_code in (400, 403)
    conditions = {"conditions": "A statement dated the day of closing"}
    assert confirm_form(eda, page, f"{page}/preliminary", conditions).status_code == 302
    r = confirm_form(eda, page, f"{page}/forward", {})
    assert r.status_code == 422 and "buying business information sheet" in r.get_data(as_text=True)
    for kind in FORWARD:
        file_exhibit(seller, app_id, kind)
    assert confirm_form(eda, page, f"{page}/forward", {}).status_code == 302
    valuation = {"benefit": "5,000,000", "certificate_number": "TAX-1", "issued_on": "2025-03-03"}
    assert confirm_form(eda, page, f"{page}/tax-certificate", valuation).status_code == 302
    html = eda.get(page).get_data(as_text=True)
    assert "TAX-1, $5,000,000.00" in html and "Final approval" in html
    assert "$19,000.00" in eda.get(fees_page).get_data(as_text=True)  # ADM-2, credited
    # downloads for those who may see the exhibit; a stranger's page is 404
    link = re.search(r'href="(/documents/[^"]+/download)"', html).group(1)  # type: ignore[union-attr]
    got = seller.get(link)
    assert got.status_code == 200 and got.data == PDF
    stranger = browser(app, "participant", create_party(api, authority_h)["id"])
    assert stranger.get(page).status_code == 404
    assert stranger.get(link).status_code == 404
