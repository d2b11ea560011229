"""Server-rendered pages over the same services as the API."""

from __future__ import annotations

from flask import Flask


def init_web(app: Flask) -> None:
    from market.web import pages

    app.register_blueprint(pages.bp)
