"""The home page: each role lands on its own desk (the shared plumbing is `market.web.base`)."""

from __future__ import annotations

from flask import current_app, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from market.web.base import bp

HOME_BY_ROLE = {
    "authority": "pages.authority_todo",
    "participant": "pages.market",
    "auditor": "pages.ledger",
}


@bp.get("/")
def home() -> ResponseReturnValue:
    if not current_user.is_authenticated:
        return redirect(url_for("pages.login"))
    endpoint = HOME_BY_ROLE.get(current_user.role, "pages.ledger")
    if endpoint not in current_app.view_functions:
        endpoint = "pages.ledger"
    return redirect(url_for(endpoint))
