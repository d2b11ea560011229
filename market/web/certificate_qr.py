"""The printed certificate's QR code: the absolute URL of the public page that checks it
by number and verification code (verify_pages, no sign-in), drawn here as inline SVG
with segno, so no outside service is asked for an image."""

from __future__ import annotations

import segno
from flask import current_app, request, url_for
from markupsafe import Markup

from market.config import DEFAULT_PUBLIC_BASE_URL

QR_ERROR_LEVEL = "m"  # survives a smudged printout (about 15% of the code unreadable)


def verify_url(number: str, code: str) -> str:
    """`/verify?number=...&code=...` on PUBLIC_BASE_URL when it is configured, else on the
    host the request came to (the address the reader is using)."""
    base = current_app.config.get("PUBLIC_BASE_URL") or DEFAULT_PUBLIC_BASE_URL
    if base == DEFAULT_PUBLIC_BASE_URL:
        base = request.host_url
    path = url_for("pages.verify_certificate", number=number, code=code)
    return base.rstrip("/") + path


def qr_svg(data: str, label: str) -> Markup:
    """The QR code of `data` as an inline `<svg>`, named for screen readers by `label`."""
    svg = segno.make(data, error=QR_ERROR_LEVEL).svg_inline(
        scale=3, title=label, svgclass="qr", lineclass=None
    )
    # segno writes the SVG and escapes the title itself.
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))
