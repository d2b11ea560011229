"""Server-rendered pages over the same services as the API."""

from __future__ import annotations

from flask import Flask


def init_web(app: Flask) -> None:
    from market.domain.errors import DomainError
    from market.web import pages
    from market.web.errors import render_domain_error

    pages.bp.register_error_handler(DomainError, render_domain_error)
    app.register_blueprint(pages.bp)
