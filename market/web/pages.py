"""Pages."""

from __future__ import annotations

from flask import Blueprint, redirect, url_for
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.web.errors import render_domain_error

bp = Blueprint("pages", __name__)
bp.register_error_handler(DomainError, render_domain_error)


@bp.get("/")
def home() -> ResponseReturnValue:
    return redirect(url_for("api-docs.openapi_swagger_ui"))
