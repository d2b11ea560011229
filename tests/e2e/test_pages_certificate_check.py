"""Certificates anyone can check (issue 28, item 7): `/certificates/<number>` resolves
with the same rules as the id (a stranger's 404 is an unknown number's), and the public
page checks a certificate by its number and verification code, without sign-in."""

from __future__ import annotations

import base64
import json
import re
from html import unescape
from typing import Any

import pytest

from market.domain import merkle
from tests.e2e.test_pages_foundation import sign_in
from tests.helpers import answer_text, create_party, headers_for


@pytest.fixture
def issued(client: Any, app: Any) -> dict[str, Any]:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    holder = create_party(client, eda, name="Hoboken Studios")
    other = create_party(client, eda, name="Trenton Widgets")
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
    made = client.post("/api/v1/ledger/checkpoints", headers=eda)
    assert made.status_code in (200, 201), made.json
    return {"cert": r.json, "holder": holder, "other": other, "eda": eda}


def _code(client: Any, app: Any, issued: dict[str, Any]) -> str:
    """The code as the holder's own certificate page prints it."""
    sign_in(client, app, "participant", issued["holder"]["id"])
    html = client.get(f"/certificates/{issued['cert']['id']}").get_data(as_text=True)
    client.post("/logout", data={"csrf_token": _csrf(html)})
    assert "signed out" in client.get("/verify").get_data(as_text=True)  # the flash, read
    match = re.search(r'Verification code <strong class="hash">(\d+-[0-9a-f]{16})</strong>', html)
    assert match, "the certificate page prints its verification code"
    number = issued["cert"]["number"]
    assert f'href="/verify?number={number}&amp;code={match.group(1)}"' in html  # and links it
    return match.group(1)


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match
    return match.group(1)


def test_the_number_printed_on_a_certificate_opens_its_page_print_and_proof(
    client: Any, app: Any, issued: dict[str, Any]
) -> None:
    cert = issued["cert"]
    sign_in(client, app, "participant", issued["holder"]["id"])
    page = client.get(f"/certificates/{cert['number']}")
    assert page.status_code == 200, page.data
    assert f"Certificate {cert['number']}" in page.get_data(as_text=True)
    assert client.get(f"/certificates/{cert['number']}/print").status_code == 200
    proof = client.get(f"/certificates/{cert['number']}/proof.json")
    assert proof.status_code == 200 and proof.json["certificate_id"] == cert["id"]


def test_a_stranger_asking_by_number_gets_the_answer_for_a_number_nobody_holds(
    client: Any, app: Any, issued: dict[str, Any]
) -> None:
    number = issued["cert"]["number"]
    unknown = number[:-1] + ("9" if number[-1] != "9" else "8")
    sign_in(client, app, "participant", issued["other"]["id"])
    for suffix in ("", "/print", "/proof.json", "/proof"):
        answers = []
        for key in (number, unknown):
            r = client.get(f"/certificates/{key}{suffix}")
            answers.append((r.status_code, answer_text(r, key)))
        assert answers[0] == answers[1] and answers[0][0] == 404, (suffix, answers)
        assert issued["cert"]["id"] not in answers[0][1]


def test_the_authority_reads_any_certificate_by_number(
    client: Any, app: Any, issued: dict[str, Any]
) -> None:
    sign_in(client, app, "authority")
    assert client.get(f"/certificates/{issued['cert']['number']}").status_code == 200


def test_anyone_checks_a_certificate_by_number_and_code_without_signing_in(
    client: Any, app: Any, issued: dict[str, Any]
) -> None:
    cert, code = issued["cert"], _code(client, app, issued)
    page = client.get("/verify", query_string={"number": cert["number"], "code": code})
    assert page.status_code == 200, page.data
    html = page.get_data(as_text=True)
    facts = html.split('<table class="keyfacts">', 1)[1].split("</table>", 1)[0]
    assert "issued" in facts and "Digital media, CBT" in facts and "FY 2014" in facts
    assert facts.count("$1,200,000.00") == 2  # face and balance
    # No party: neither the holder's name nor its tax id nor any internal id.
    for secret in ("Hoboken Studios", issued["holder"]["tax_id"], issued["holder"]["id"]):
        assert secret not in html
    assert cert["id"] not in html
    # The proof on the page recomputes the signed root (as the browser does).
    data = json.loads(unescape(html.split('data-proof="', 1)[1].split('"', 1)[0]))
    proof = data["proof"]
    note_root = base64.b64decode(proof["checkpoint"]["note"].split("\n")[2])
    leaf = merkle.leaf_hash(bytes.fromhex(data["event"]["hash"]))
    path = [bytes.fromhex(h) for h in proof["path"]]
    size = proof["checkpoint"]["tree_size"]
    assert merkle.verify_inclusion(leaf, proof["leaf_index"], size, path, note_root)
    assert data["event"]["hash"].startswith(code.split("-")[1])
    key = client.get("/api/v1/ledger/public-key").json
    assert proof["key"]["public_key"] == key["public_key"]
    assert 'src="/static/verify.js"' in html
    for link in ("/api/v1/ledger/public-key", "/api/v1/ledger/checkpoints/latest"):
        assert f'href="{link}"' in html
    asked = {"number": cert["number"], "code": code}
    as_json = client.get("/verify/proof.json", query_string=asked)
    assert as_json.status_code == 200 and as_json.json["proof"] == proof
    assert f'href="/verify/proof.json?number={cert["number"]}&amp;code={code}"' in html


def test_a_wrong_code_answers_as_a_number_nobody_holds(
    client: Any, app: Any, issued: dict[str, Any]
) -> None:
    cert, code = issued["cert"], _code(client, app, issued)
    seq, digest = code.split("-")
    wrong = f"{seq}-{digest[:-1]}{'0' if digest[-1] != '0' else '1'}"
    unknown = cert["number"][:-1] + ("9" if cert["number"][-1] != "9" else "8")
    number = cert["number"]
    tries = [(number, wrong), (unknown, code), (number, "not-a-code"), (number, "")]
    for path in ("/verify", "/verify/proof.json"):
        answers = []
        for number, typed in tries:
            r = client.get(path, query_string={"number": number, "code": typed})
            text = r.get_data(as_text=True).replace(number, "<n>")
            answers.append((r.status_code, text.replace(f'value="{typed}"', 'value="<c>"')))
        assert all(a == answers[0] for a in answers), (path, answers)
        assert answers[0][0] == 404
        for secret in ("$1,200,000.00", "Digital media", cert["id"], digest):
            assert secret not in answers[0][1]


def test_the_printed_qr_code_opens_the_public_check_with_number_and_code(
    client: Any, app: Any, issued: dict[str, Any]
) -> None:
    cert = issued["cert"]
    sign_in(client, app, "participant", issued["holder"]["id"])
    html = client.get(f"/certificates/{cert['id']}/print").get_data(as_text=True)
    code = re.search(r"Verification code <strong class=\"hash\">([0-9a-f-]+)</strong>", html)[1]
    url = f"http://localhost/verify?number={cert['number']}&amp;code={code}"
    assert f'href="{url}"' in html and f'<strong class="hash">{code}</strong>' in html
    svg = re.search(r"<svg\b.*?</svg>", html, re.S)
    assert svg and "QR code of the page that checks certificate" in svg.group(0)
    # Opened on a phone that never signed in: the check, not a sign-in page.
    opened = app.test_client().get(url.replace("&amp;", "&"))
    assert opened.status_code == 200 and "Proof that the ledger holds it" in opened.get_data(
        as_text=True
    )
