"""Forgot password: the same answer for every address, an e-mailed link that works once
for 30 minutes (stored hashed), sent by the worker; the new password works, the old not."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select, update

from market.adapters.tables import PasswordReset
from market.services.identity import identity
from tests.deals_servers import SmtpServer
from tests.e2e.test_email_delivery import deliver
from tests.e2e.test_pages_foundation import _csrf

resets = PasswordReset.__table__  # type: ignore[attr-defined]


def ask(app: Any, email: str) -> Any:
    page = app.test_client()
    token = _csrf(page.get("/password/forgot").data)
    return page.post("/password/forgot", data={"email": email, "csrf_token": token})


def sign_in(app: Any, email: str, password: str) -> int:
    page = app.test_client()
    token = _csrf(page.get("/login").data)
    r = page.post("/login", data={"email": email, "password": password, "csrf_token": token})
    return int(r.status_code)


def set_password(app: Any, path: str, password: str) -> Any:
    page = app.test_client()
    form = page.get(path)
    if form.status_code != 200:
        return form
    token = _csrf(form.data)
    return page.post(path, data={"password": password, "confirm": password, "csrf_token": token})


def test_a_reset_link_is_mailed_works_once_and_changes_the_password(app: Any) -> None:
    engine = app.extensions["market.engine"]
    identity.create_user(engine, "ana@firm.test", "auditor", "the-old-password")
    assert "Forgot password?" in app.test_client().get("/login").get_data(as_text=True)
    known, unknown = ask(app, "Ana@firm.test"), ask(app, "nobody@firm.test")
    assert known.status_code == unknown.status_code == 200
    assert known.get_data(as_text=True) == unknown.get_data(as_text=True)  # no account oracle
    with engine.connect() as conn:
        stored = conn.execute(select(resets)).mappings().all()
    assert len(stored) == 1 and len(stored[0]["token_hash"]) == 64
    with SmtpServer() as smtp:
        app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=smtp.port)
        assert deliver(app)["email"]["sent"] == 1
    (mail,) = smtp.messages
    assert mail["To"] == "ana@firm.test" and mail["Subject"] == "Reset your password"
    text = mail.get_body(("plain",)).get_content()
    path = re.search(r"http://[^/\s]+(/password/reset/[\w-]+)", text)
    assert path is not None and stored[0]["token_hash"] not in text
    assert set_password(app, path.group(1), "too-short").status_code == 400
    done = set_password(app, path.group(1), "a-new-long-password")
    assert done.status_code == 302 and done.headers["Location"].endswith("/login")
    assert sign_in(app, "ana@firm.test", "a-new-long-password") == 302
    assert sign_in(app, "ana@firm.test", "the-old-password") == 401
    again = set_password(app, path.group(1), "yet-another-password")
    assert again.status_code == 400 and "not valid any more" in again.get_data(as_text=True)


def test_an_expired_or_superseded_link_is_refused(app: Any) -> None:
    engine = app.extensions["market.engine"]
    identity.create_user(engine, "bo@firm.test", "auditor", "the-old-password")
    from market.services.identity import password_reset

    hasher = app.extensions["market.token_hasher"]
    first = password_reset.request_reset(engine, hasher, "bo@firm.test")
    second = password_reset.request_reset(engine, hasher, "bo@firm.test")
    assert first and second
    assert set_password(app, f"/password/reset/{first}", "a-new-long-password").status_code == 400
    with engine.begin() as conn:
        conn.execute(update(resets).values(expires_at="2000-01-01T00:00:00.000000Z"))
    assert set_password(app, f"/password/reset/{second}", "a-new-long-password").status_code == 400
    assert sign_in(app, "bo@firm.test", "the-old-password") == 302
