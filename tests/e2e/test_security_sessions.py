"""Page sessions live on the server: sign-out, a password change, 30 idle minutes or 12
hours end them, whatever the cookie says; the cookie is HttpOnly, SameSite=Lax and, when
configured, Secure. Bearer tokens work as before."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from market.adapters.tables import WebSession
from market.services.identity import identity

PASSWORD = "a-fine-long-passphrase"
sessions_t = WebSession.__table__  # type: ignore[attr-defined]


def _engine(app: Any) -> Engine:
    return app.extensions["market.engine"]  # type: ignore[no-any-return]


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match
    return match[1]


def _signed_in(app: Any, email: str = "aud@example.com") -> Any:
    browser = app.test_client()
    token = _csrf(browser.get("/login").get_data(as_text=True))
    r = browser.post("/login", data={"email": email, "password": PASSWORD, "csrf_token": token})
    assert r.status_code == 302
    assert browser.get("/ledger").status_code == 200
    return browser


def _cookie(browser: Any) -> str:
    cookie = browser.get_cookie("session")
    assert cookie is not None
    return str(cookie.value)


def _user(app: Any) -> str:
    return str(identity.create_user(_engine(app), "aud@example.com", "auditor", PASSWORD)["id"])


def test_the_session_cookie_is_httponly_samesite_lax(app: Any) -> None:
    _user(app)
    browser = app.test_client()
    token = _csrf(browser.get("/login").get_data(as_text=True))
    r = browser.post(
        "/login", data={"email": "aud@example.com", "password": PASSWORD, "csrf_token": token}
    )
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_session_cookie_secure_is_a_setting(app: Any) -> None:
    app.config["SESSION_COOKIE_SECURE"] = True
    _user(app)
    browser = app.test_client()
    page = browser.get("/login", base_url="https://localhost")
    r = browser.post(
        "/login",
        data={"email": "aud@example.com", "password": PASSWORD, "csrf_token": _csrf(page.text)},
        base_url="https://localhost",
    )
    assert "Secure" in r.headers["Set-Cookie"]


def test_a_cookie_kept_after_sign_out_opens_nothing(app: Any) -> None:
    _user(app)
    browser = _signed_in(app)
    stolen = _cookie(browser)
    token = _csrf(browser.get("/ledger").get_data(as_text=True))
    browser.post("/logout", data={"csrf_token": token})
    replay = app.test_client()
    replay.set_cookie("session", stolen)
    r = replay.get("/ledger")
    assert r.status_code == 302 and "/login" in r.headers["Location"]
    with _engine(app).connect() as conn:
        rows = conn.execute(sessions_t.select()).all()
    assert len(rows) == 1 and rows[0].revoked_at is not None


def test_a_password_change_ends_other_sessions_and_tokens_and_keeps_this_one(
    app: Any, client: Any
) -> None:
    _user(app)
    laptop, phone = _signed_in(app), _signed_in(app)
    bearer = client.post(
        "/api/v1/auth/token", json={"email": "aud@example.com", "password": PASSWORD}
    ).json["token"]
    token = _csrf(laptop.get("/account").get_data(as_text=True))
    form = {"current_password": PASSWORD, "csrf_token": token}
    mismatch = laptop.post(
        "/account/password",
        data=form | {"new_password": "another-long-one", "new_password_again": "different-one"},
    )
    assert mismatch.status_code == 400 and "differ" in mismatch.text
    weak = laptop.post(
        "/account/password",
        data=form | {"new_password": "short", "new_password_again": "short"},
    )
    assert weak.status_code == 400 and "at least 12 characters" in weak.text
    wrong = laptop.post(
        "/account/password",
        data=form
        | {
            "current_password": "not-the-password",
            "new_password": "another-long-one",
            "new_password_again": "another-long-one",
        },
    )
    assert wrong.status_code == 401 and "current password is wrong" in wrong.text
    done = laptop.post(
        "/account/password",
        data=form | {"new_password": "another-long-one", "new_password_again": "another-long-one"},
    )
    assert done.status_code == 302
    assert laptop.get("/ledger").status_code == 200  # this browser got a fresh session
    assert phone.get("/ledger").status_code == 302  # the other one is signed out
    api = client.get("/api/v1/ledger/verify", headers={"Authorization": f"Bearer {bearer}"})
    assert api.status_code == 401  # so are the API tokens
    assert identity.check_password(_engine(app), "aud@example.com", "another-long-one")


def _age(app: Any, **fields: datetime) -> None:
    values = {k: v.strftime("%Y-%m-%dT%H:%M:%S.%fZ") for k, v in fields.items()}
    with _engine(app).begin() as conn:
        conn.execute(sessions_t.update().values(**values))


def test_thirty_idle_minutes_end_a_session(app: Any) -> None:
    _user(app)
    browser = _signed_in(app)
    now = datetime.now(UTC)
    _age(app, last_seen_at=now - timedelta(minutes=29))
    assert browser.get("/ledger").status_code == 200  # and this touches it
    _age(app, last_seen_at=now - timedelta(minutes=31))
    assert browser.get("/ledger").status_code == 302


def test_twelve_hours_end_a_session_however_busy(app: Any) -> None:
    _user(app)
    browser = _signed_in(app)
    now = datetime.now(UTC)
    _age(app, created_at=now - timedelta(hours=11, minutes=59), last_seen_at=now)
    assert browser.get("/ledger").status_code == 200
    _age(app, created_at=now - timedelta(hours=12, minutes=1), last_seen_at=now)
    assert browser.get("/ledger").status_code == 302


def test_the_limits_are_settings(app: Any) -> None:
    app.config["SESSION_IDLE_MINUTES"] = 5
    _user(app)
    browser = _signed_in(app)
    _age(app, last_seen_at=datetime.now(UTC) - timedelta(minutes=6))
    assert browser.get("/ledger").status_code == 302


def test_signing_in_again_replaces_the_cookie_contents(app: Any) -> None:
    """No session fixation: whatever the cookie held before sign-in is dropped."""
    _user(app)
    browser = app.test_client()
    with browser.session_transaction() as s:
        s["planted"] = "by-an-attacker"
    token = _csrf(browser.get("/login").get_data(as_text=True))
    browser.post(
        "/login", data={"email": "aud@example.com", "password": PASSWORD, "csrf_token": token}
    )
    with browser.session_transaction() as s:
        assert "planted" not in s and isinstance(s.get("sid"), str)
