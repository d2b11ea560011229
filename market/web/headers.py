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


# What every answer carries (the login gate in front of Flask sends the same).
FIXED_HEADERS = [
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
]


def add_security_headers(response: Response) -> Response:
    headers = response.headers
    for name, value in FIXED_HEADERS:
        headers.setdefault(name, value)
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", HSTS)
    if not request.path.startswith("/static/"):
        headers["Cache-Control"] = "no-store"
    return response


def register(app: Flask) -> None:
    app.after_request(add_security_headers)
