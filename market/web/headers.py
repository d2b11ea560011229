"""Security headers on every response (OWASP ASVS 14.4).

CSP: only this origin's scripts (the templates hold no inline script or event handler;
Swagger UI's start-up is a static file), no framing (`frame-ancestors 'none'`, and
X-Frame-Options for old browsers), forms post only here. Styles allow 'unsafe-inline'
because the charts are pygal SVG inlined in the page, which carries its own <style>
element per chart; inline styles cannot run script. Signed-in pages and API answers are
`no-store` (a shared computer's back button or a proxy must not keep them); static files
keep their caching. HSTS only on HTTPS requests (behind a proxy: set TRUSTED_PROXIES so
X-Forwarded-Proto is believed).
"""

from __future__ import annotations

from flask import Flask, Response, request

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HSTS = "max-age=31536000; includeSubDomains"


def add_security_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", HSTS)
    if not request.path.startswith("/static/"):
        headers["Cache-Control"] = "no-store"
    return response


def register(app: Flask) -> None:
    app.after_request(add_security_headers)
