"""Input that once gave 500 is 400/404 in the error shape (pages: a styled page in the
site's layout), on SQLite and PostgreSQL; bodies over MAX_CONTENT_LENGTH are 413;
bidirectional control characters are refused in names; nothing is written."""

from __future__ import annotations

import re
from typing import Any

import pytest

from market.services.identity import identity
from tests.helpers import create_party, events, headers_for, party_body

JSON = "application/json"


@pytest.fixture
def eda(client: Any, app: Any) -> dict[str, str]:
    return headers_for(client, app.extensions["market.engine"], "authority")


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.get_data(as_text=True)[:300]
    assert r.json["error"]["code"] == code
    assert r.json["error"]["message"]


BODIES = [
    ("nested 1,000 deep (arrays)", "[" * 1000 + "]" * 1000, "too_deeply_nested"),
    ("nested 1,000 deep (objects)", '{"a":' * 1000 + "1" + "}" * 1000, "too_deeply_nested"),
    (
        "a 5,000-digit integer",
        '{"name": "X", "tax_id": "22-1", "entity_type": "llc", "tax_types": ["CBT"], '
        '"us_employees": ' + "9" * 5000 + "}",
        "number_too_large",
    ),
    ("a lone surrogate", '{"name": "\\ud800", "tax_id": "22-2"}', "malformed_json"),
    ("NUL in a string", '{"name": "a\\u0000b", "tax_id": "22-3"}', "malformed_request"),
    ("NaN", '{"us_employees": NaN}', "malformed_json"),
]


@pytest.mark.parametrize(("case", "body", "code"), BODIES, ids=[b[0] for b in BODIES])
def test_hostile_json_is_400_and_writes_nothing(
    client: Any, app: Any, eda: dict[str, str], case: str, body: str, code: str
) -> None:
    before = events(app.extensions["market.engine"])
    r = client.post("/api/v1/parties", data=body, content_type=JSON, headers=eda)
    _refused(r, 400, code)
    assert events(app.extensions["market.engine"]) == before


def test_a_reject_reason_with_nul_is_400(client: Any, eda: dict[str, str]) -> None:
    r = client.post("/api/v1/transfers/trf_x/reject", json={"reason": "no\u0000"}, headers=eda)
    _refused(r, 400, "malformed_request")


def test_bodies_over_max_content_length_are_413(client: Any, app: Any, eda: dict[str, str]) -> None:
    assert app.config["MAX_CONTENT_LENGTH"] == 1024 * 1024
    big = '{"name": "' + "a" * (1024 * 1024) + '"}'
    _refused(
        client.post("/api/v1/parties", data=big, content_type=JSON, headers=eda),
        413,
        "request_too_large",
    )


@pytest.mark.parametrize("mark", ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f"])
def test_bidi_controls_are_refused_in_names(
    client: Any, app: Any, eda: dict[str, str], mark: str
) -> None:
    before = events(app.extensions["market.engine"])
    r = client.post("/api/v1/parties", json=party_body(name=f"Acme{mark}oC"), headers=eda)
    _refused(r, 400, "bidi_control_characters")
    assert events(app.extensions["market.engine"]) == before
    # Ordinary non-Latin names are welcome.
    assert create_party(client, eda, name="Société Générale Ünïcode 株式会社")["name"].startswith(
        "Soc"
    )


def _page_client(app: Any) -> Any:
    identity.create_user(
        app.extensions["market.engine"], "eda@x.org", "authority", "a-long-passphrase"
    )
    browser = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/login").text)
    assert token
    browser.post(
        "/login",
        data={"email": "eda@x.org", "password": "a-long-passphrase", "csrf_token": token[1]},
    )
    return browser


def _styled(r: Any, status: int) -> str:
    html = r.get_data(as_text=True)
    assert r.status_code == status, html[:300]
    assert 'href="/static/app.css"' in html and "NJ Transfer Certificates" in html  # the layout
    assert "Go to your home page" in html
    return html


def test_nul_in_a_page_path_query_or_form_is_a_styled_404_or_400(app: Any) -> None:
    browser = _page_client(app)
    _styled(browser.get("/certificates/crt_%00x"), 404)
    _styled(browser.get("/ledger?stream=a%00b"), 400)
    form = browser.get("/authority").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert token
    r = browser.post(
        "/authority/transfers/trf_x/reject", data={"reason": "no\u0000", "csrf_token": token[1]}
    )
    _styled(r, 400)
    bidi = browser.post(
        "/authority/transfers/trf_x/reject", data={"reason": "ok\u202e", "csrf_token": token[1]}
    )
    assert "bidirectional" in _styled(bidi, 400)


def test_the_sites_own_404_and_403_pages(app: Any, client: Any) -> None:
    _styled(client.get("/no-such-page"), 404)
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    party = create_party(client, eda)
    identity.create_user(
        app.extensions["market.engine"], "p@x.org", "participant", "a-long-passphrase", party["id"]
    )
    browser = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', browser.get("/login").text)
    assert token
    browser.post(
        "/login", data={"email": "p@x.org", "password": "a-long-passphrase", "csrf_token": token[1]}
    )
    assert "not for your role" in _styled(browser.get("/authority"), 403)


def test_a_page_that_fails_shows_the_sites_500_page(app: Any, client: Any) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/boom-for-test")
    def boom() -> str:
        raise RuntimeError("boom")

    html = _styled(client.get("/boom-for-test"), 500)
    assert "boom" not in html and "Something went wrong" in html


def test_api_404_is_in_the_error_shape(client: Any) -> None:
    _refused(client.get("/api/v1/nothing-here"), 404, "not_found")
