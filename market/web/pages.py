"""Pages."""

from __future__ import annotations

from flask import Blueprint, redirect, url_for
from flask.typing import ResponseReturnValue

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> ResponseReturnValue:
    return redirect(url_for("api-docs.openapi_swagger_ui"))
