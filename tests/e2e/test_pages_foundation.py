"""Sign-in, CSRF and the ledger explorer."""

from __future__ import annotations

import re
from typing import Any

from market.services.identity import identity
from tests.helpers import create_party, headers_for


def _csrf(html: bytes) -> str:
    match = re.search(rb'name="csrf_token" value="([^"]+)"', html)
    assert match, "the form carries a CSRF token"
    return match.group(1).decode()


def sign_in(client: Any, app: Any, role: str, party_id: str | None = None) -> str:
    email = f"{role}-{party_id or 'x'}-page@example.com".lower()
    identity.create_user(app.extensions["market.engine"], email, role, "page-password", party_id)
    token = _csrf(client.get("/login").data)
    r = client.post(
        "/login", data={"email": email, "password": "page-password", "csrf_token": token}
    )
    assert r.status_code == 302, r.data
    return email


def test_a_page_needs_sign_in(client: Any) -> None:
    r = client.get("/ledger")
    assert r.status_code == 302 and "/login" in r.headers["Location"]


def test_a_wrong_password_shows_the_reason(client: Any, app: Any) -> None:
    identity.create_user(app.extensions["market.engine"], "a@b.org", "auditor", "right-password")
    token = _csrf(client.get("/login").data)
    r = client.post("/login", data={"email": "a@b.org", "password": "nope", "csrf_token": token})
    assert r.status_code == 401
    assert b"The email, password or code is wrong." in r.data


def test_a_form_post_without_the_csrf_token_is_refused(client: Any, app: Any) -> None:
    identity.create_user(app.extensions["market.engine"], "a@b.org", "auditor", "right-password")
    r = client.post("/login", data={"email": "a@b.org", "password": "right-password"})
    assert r.status_code == 400


def test_the_login_form_does_not_redirect_off_site(client: Any, app: Any) -> None:
    identity.create_user(app.extensions["market.engine"], "a@b.org", "auditor", "right-password")
    token = _csrf(client.get("/login").data)
    r = client.post(
        "/login?next=//evil.example/x",
        data={"email": "a@b.org", "password": "right-password", "csrf_token": token},
    )
    assert r.status_code == 302 and "evil" not in r.headers["Location"]


def test_the_ledger_page_shows_events_and_verifies(client: Any, app: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    party = create_party(client, eda, name="Princeton Photonics")
    sign_in(client, app, "auditor")
    page = client.get("/ledger")
    assert page.status_code == 200
    assert b"PARTY_REGISTERED" in page.data and b"Princeton Photonics" in page.data
    verified = client.get("/ledger?verify=1")
    # The party, and the auditor's page sign-in (an ACCOUNT_EVENT_RECORDED).
    assert b"Verified: 2 events" in verified.data
    stream = client.get(f"/ledger?stream=party-{party['id']}")
    assert b"PARTY_REGISTERED" in stream.data
    other = client.get("/ledger?stream=party-nobody")
    assert b"No events in this stream match" in other.data


def test_a_participant_may_not_open_the_ledger(client: Any, app: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    party = create_party(client, eda)
    sign_in(client, app, "participant", party["id"])
    assert client.get("/ledger").status_code == 403


def test_signing_out_needs_a_post_with_the_token(client: Any, app: Any) -> None:
    sign_in(client, app, "auditor")
    page = client.get("/ledger")
    assert client.post("/logout").status_code == 400
    r = client.post("/logout", data={"csrf_token": _csrf(page.data)})
    assert r.status_code == 302
    assert client.get("/ledger").status_code == 302
