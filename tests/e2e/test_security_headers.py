"""Every response carries the security headers; signed-in pages and API answers are not
stored; HSTS only over HTTPS (and behind a trusted proxy, from X-Forwarded-Proto); the
templates hold no inline script, so the CSP can forbid it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from market import create_app
from market.config import ROOT
from tests.helpers import headers_for

COMMON = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


def _check(r: Any) -> None:
    for name, value in COMMON.items():
        assert r.headers[name] == value, name
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    script = re.search(r"script-src ([^;]+)", csp)
    assert script and "unsafe-inline" not in script[1]


def test_pages_api_answers_and_errors_carry_the_headers_and_no_store(app: Any, client: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    for r in (
        client.get("/login"),
        client.get("/api/v1/parties", headers=eda),
        client.get("/api/v1/parties"),
        client.get("/no-such-page"),
        client.get("/api/v1/openapi.json"),
    ):
        _check(r)
        assert r.headers["Cache-Control"] == "no-store"
        assert "Strict-Transport-Security" not in r.headers
    static = client.get("/static/app.css")
    _check(static)
    assert static.headers.get("Cache-Control") != "no-store"
    static.close()


def test_hsts_over_https(client: Any) -> None:
    r = client.get("/login", base_url="https://localhost")
    assert r.headers["Strict-Transport-Security"].startswith("max-age=31536000")


def test_behind_a_trusted_proxy_the_forwarded_scheme_counts(database_url: str) -> None:
    app = create_app({"DATABASE_URL": database_url, "TRUSTED_PROXIES": 1, "SECRET_KEY": "x"})
    try:
        forwarded = app.test_client().get("/login", headers={"X-Forwarded-Proto": "https"})
        assert "Strict-Transport-Security" in forwarded.headers
    finally:
        app.extensions["market.engine"].dispose()


def test_without_a_trusted_proxy_a_forwarded_scheme_is_ignored(client: Any) -> None:
    r = client.get("/login", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in r.headers


def test_no_template_has_inline_script_or_event_handlers() -> None:
    inline = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
    handler = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
    found = []
    for path in Path(ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        if inline.search(text) or handler.search(text) or "javascript:" in text:
            found.append(path.name)
    assert not found


def test_swagger_ui_starts_from_a_static_script(client: Any) -> None:
    page = client.get("/api/v1/docs").get_data(as_text=True)
    assert "swagger-init.js" in page and 'data-spec-url="/api/v1/openapi.json"' in page
    script = client.get("/static/swagger-init.js")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.text
    script.close()
