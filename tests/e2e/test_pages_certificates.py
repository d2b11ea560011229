"""The certificate page and the caps report page."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_pages_foundation import sign_in
from tests.helpers import create_party, headers_for


def _issue(client: Any, eda: dict[str, str], holder: str, **body: Any) -> dict[str, Any]:
    payload = {
        "program": "DM_CBT",
        "holder_party_id": holder,
        "face_cents": 120_000_000,
        "fiscal_year": 2014,
    } | body
    r = client.post("/api/v1/certificates", json=payload, headers=eda)
    assert r.status_code == 201, r.json
    return r.json  # type: ignore[no-any-return]


def test_the_holder_sees_its_certificate_with_the_waiver(client: Any, app: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    holder = create_party(client, eda, name="Hoboken Studios")
    cert = _issue(client, eda, holder["id"])
    sign_in(client, app, "participant", holder["id"])
    page = client.get(f"/certificates/{cert['id']}")
    assert page.status_code == 200
    html = page.data.decode()
    assert cert["number"] in html and "Hoboken Studios" in html
    assert "$1,200,000.00" in html
    assert "waives the right to claim" in html
    assert "CERT_ISSUED" in html


def test_another_participant_may_not_see_the_certificate(client: Any, app: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    holder, other = create_party(client, eda), create_party(client, eda)
    cert = _issue(client, eda, holder["id"])
    sign_in(client, app, "participant", other["id"])
    page = client.get(f"/certificates/{cert['id']}")
    assert page.status_code == 404  # as if it did not exist (no existence oracle)
    assert cert["number"].encode() not in page.data


def test_the_caps_page_charts_and_tabulates_the_pools(client: Any, app: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    holder = create_party(client, eda)
    _issue(client, eda, holder["id"], face_cents=600_000_000)
    sign_in(client, app, "auditor")
    page = client.get("/reports/caps?fiscal_year=2014")
    assert page.status_code == 200
    html = page.data.decode()
    assert "<svg" in html and "<script" not in html.split("<svg", 1)[1].split("</svg>")[0]
    # DM_CBT pool: $5M cap fully used, $1M queued for FY 2015.
    row = html.split(">Digital media, CBT pool</th>", 1)[1].split("</tr>", 1)[0]
    assert "$5,000,000.00" in row and "$1,000,000.00" in row and "100.00%" in row
    # The chart: each cap's use as a percentage of that cap, an image named in words.
    svg = html.split("<svg", 1)[1].split(">", 1)[0]
    assert 'role="img"' in svg and "Digital media, CBT pool 100.0% used" in svg
