"""The printed certificate: issue date, the Authority's name, a verification code, and a QR
code (inline SVG, drawn here) of the public check's absolute address; no raw payloads."""

from __future__ import annotations

import re
from typing import Any

import pytest
import segno

from market.web import certificate_qr
from tests.e2e.test_pages_foundation import sign_in
from tests.helpers import create_party, headers_for


@pytest.fixture
def printed(client: Any, app: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    holder = create_party(client, eda, name="Hoboken Studios")
    r = client.post(
        "/api/v1/certificates",
        json={
            "program": "DM_CBT",
            "holder_party_id": holder["id"],
            "face_cents": 120_000_000,
            "fiscal_year": 2014,
        },
        headers=eda,
    )
    assert r.status_code == 201, r.json
    encoded: list[str] = []
    make = segno.make

    def recording_make(content: str, **kwargs: Any) -> Any:
        encoded.append(content)
        return make(content, **kwargs)

    monkeypatch.setattr(certificate_qr.segno, "make", recording_make)
    sign_in(client, app, "participant", holder["id"])
    return {"cert": r.json, "encoded": encoded}


def _svg(html: str) -> str:
    match = re.search(r"<svg\b.*?</svg>", html, re.S)
    assert match, "the page draws the QR code inline"
    return match.group(0)


def test_the_print_view_carries_the_issue_date_authority_code_and_qr(
    client: Any, app: Any, printed: dict[str, Any]
) -> None:
    cert = printed["cert"]
    page = client.get(f"/certificates/{cert['id']}/print")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "by the\n  <strong>New Jersey Economic Development Authority</strong>" in html
    assert re.search(r"Issued on <strong>\d{4}-\d{2}-\d{2}</strong>", html)
    code = re.search(r'Verification code <strong class="hash">(\d+-[0-9a-f]{16})</strong>', html)
    assert code
    proof = f"http://localhost/verify?number={cert['number']}&code={code[1]}"
    # The QR encodes exactly the public check's address: what segno was given, and the
    # same drawing segno makes of that address on its own.
    assert printed["encoded"] == [proof]
    svg = _svg(html)
    own = segno.make(proof, error="m").svg_inline(scale=3, svgclass="qr", lineclass=None)
    assert re.sub(r"<title>.*?</title>", "", svg).replace(' role="img"', "") == own
    assert (
        'role="img"' in svg
        and f"<title>QR code of the page that checks certificate {cert['number']}" in svg
    )
    assert "http" not in svg.replace(proof.replace("&", "&amp;"), "")  # nothing fetched
    assert f'href="{proof.replace("&", "&amp;")}"' in html
    # No raw JSON: no payload disclosure, no serialized event.
    assert "<pre" not in html and '"certificate_id"' not in html and "&#34;" not in html
    assert "Raw event" not in html
    history = html.split("<h2>History</h2>", 1)[1]
    assert f"Certificate {cert['number']} was issued" in history
    # The address printed before the public check still answers with the bundle.
    bundle = client.get(f"/certificates/{cert['id']}/proof")
    assert bundle.status_code == 200 and bundle.json["certificate_id"] == cert["id"]


def test_the_qr_uses_the_configured_public_address(
    client: Any, app: Any, printed: dict[str, Any]
) -> None:
    app.config["PUBLIC_BASE_URL"] = "https://market.example.nj/"
    cert = printed["cert"]
    html = client.get(f"/certificates/{cert['id']}/print").get_data(as_text=True)
    assert printed["encoded"][0].startswith(
        f"https://market.example.nj/verify?number={cert['number']}&code="
    )
    assert "http://localhost" not in html


def test_the_certificate_page_links_its_print_view(client: Any, printed: dict[str, Any]) -> None:
    cert = printed["cert"]
    html = client.get(f"/certificates/{cert['id']}").get_data(as_text=True)
    assert f'href="/certificates/{cert["id"]}/print"' in html
