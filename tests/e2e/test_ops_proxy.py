"""Behind a proxy (PRODUCT.md 9.4): Debian's nginx as the TLS front of gunicorn with
TRUSTED_PROXIES=1, as docs/OPERATIONS.md sets it up (tests/fixtures/nginx_tls_front.conf),
on SQLite and PostgreSQL: plain HTTP redirects, HTTPS answers with HSTS and Secure
cookies, the throttle sees the client's address (not the proxy's, not one the client
made up); and without trusted proxies the forwarded headers count for nothing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import select

from market.adapters.db import make_engine
from market.adapters.tables import LoginFailure
from market.services.identity import identity
from tests.ops_servers import gunicorn, nginx_front

pytestmark = pytest.mark.storage
failures_t = LoginFailure.__table__  # type: ignore[attr-defined]
SPOOFED = "203.0.113.7"


def failure_keys(database_url: str) -> set[str]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            return set(conn.execute(select(failures_t.c.key)).scalars())
    finally:
        engine.dispose()


def flood_sign_in(
    base: str, cert: str, n: int
) -> list[requests.Response | requests.RequestException]:
    """n wrong sign-ins at once, each waiting 3 s for its answer (the error if none came)."""

    def one(i: int) -> requests.Response | requests.RequestException:
        try:
            return requests.post(
                f"{base}/api/v1/auth/token",
                json={"email": f"flood-{i}@firm.test", "password": "not the password"},
                verify=cert,
                timeout=(10, 3),
            )
        except requests.RequestException as exc:
            return exc

    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(one, range(n)))


def test_the_nginx_tls_front(database_url: str, tmp_path: Path) -> None:
    engine = make_engine(database_url)
    identity.create_user(engine, "front@firm.test", "auditor", "a-good-long-password")
    engine.dispose()
    settings = {"TRUSTED_PROXIES": "1", "SESSION_COOKIE_SECURE": "1"}
    with (
        gunicorn(database_url, tmp_path, **settings) as app,
        nginx_front(app.port, tmp_path) as front,
    ):
        plain = requests.get(f"{front.http}/login?next=/ledger", allow_redirects=False, timeout=10)
        assert plain.status_code == 301
        assert plain.headers["Location"] == f"{front.https}/login?next=/ledger"

        page = requests.get(f"{front.https}/login", verify=front.cert, timeout=10)
        assert page.status_code == 200
        assert page.headers["Strict-Transport-Security"].startswith("max-age=31536000")
        cookie = page.headers["Set-Cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie
        assert len(page.headers["X-Request-Id"]) == 32  # nginx's $request_id, kept

        wrong = requests.post(
            f"{front.https}/api/v1/auth/token",
            json={"email": "front@firm.test", "password": "not the password"},
            headers={"X-Forwarded-For": SPOOFED},
            verify=front.cert,
            timeout=30,
        )
        assert wrong.status_code == 401
        # The front's sign-in rate limit (1 a second per address, burst=32 delay=5): of a
        # flood of 40 at once, 1 + 5 pass at once, 27 are held in nginx (released one a
        # second), the rest are refused there with 429 in the API's error shape.
        flood = flood_sign_in(front.https, front.cert, 40)
        refused = [r for r in flood if isinstance(r, requests.Response) and r.status_code == 429]
        passed = [  # to the app: a wrong password, or busy (one at a time an address)
            r for r in flood if isinstance(r, requests.Response) and r.status_code in (401, 503)
        ]
        held = [r for r in flood if isinstance(r, requests.Timeout)]
        assert len(refused) + len(passed) + len(held) == 40, flood
        # At most 6 at once, then one a second of the client's 3 s wait.
        assert len(passed) <= 10 and len(refused) >= 7 and len(held) >= 20
        assert refused[0].json()["error"]["code"] == "too_many_attempts"
        assert refused[0].headers["Retry-After"] == "1"
        direct = requests.get(f"{app.url}/metrics", timeout=10)
        proxied = requests.get(f"{front.https}/metrics", verify=front.cert, timeout=10)
    # The client is 127.0.0.1; nginx reaches the app from 127.0.0.2.
    keys = {k for k in failure_keys(database_url) if not k.startswith("account:flood-")}
    assert keys == {"account:front@firm.test", "address:127.0.0.1"}
    # /metrics through the front is the client's (127.0.0.1, allowed) as it is direct.
    assert direct.status_code == proxied.status_code == 200


def test_without_trusted_proxies_forwarded_headers_are_ignored(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    identity.create_user(engine, "direct@firm.test", "auditor", "a-good-long-password")
    forged = {"X-Forwarded-For": SPOOFED, "X-Forwarded-Proto": "https"}
    r = client.post(
        "/api/v1/auth/token",
        json={"email": "direct@firm.test", "password": "wrong"},
        headers=forged,
        environ_base={"REMOTE_ADDR": "198.51.100.20"},
    )
    assert r.status_code == 401
    assert "Strict-Transport-Security" not in r.headers
    with engine.connect() as conn:
        keys = set(conn.execute(select(failures_t.c.key)).scalars())
    assert keys == {"account:direct@firm.test", "address:198.51.100.20"}
