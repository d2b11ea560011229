"""An inbox notice as an e-mail: plain text and HTML with the same words and link."""

from __future__ import annotations

from html import escape

_base_url = "http://127.0.0.1:5000"


def configure(base_url: str) -> None:
    """PUBLIC_BASE_URL: where the links in e-mails point (set by create_app)."""
    global _base_url
    _base_url = base_url.rstrip("/")


def absolute(link: str | None) -> str | None:
    if not link:
        return None
    return link if "://" in link else f"{_base_url}{link}"


def render_email(subject: str, body: str, link: str | None) -> tuple[str, str]:
    url = absolute(link)
    text = body + (f"\n\nSee it at {url}\n" if url else "\n")
    text += "\n-- \nNJ transfer certificate market\n"
    see = f'<p><a href="{escape(url)}">See it on the market</a></p>' if url else ""
    html = (
        "<!doctype html><html><body>"
        f"<h1>{escape(subject)}</h1><p>{escape(body)}</p>{see}"
        "<p>NJ transfer certificate market</p></body></html>"
    )
    return text, html
