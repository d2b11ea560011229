"""The home page: each role lands on its own desk.

The shared plumbing lives in `market.web.base`. The names re-exported below are for page
modules another engineer is editing now (report_pages, the certificate print page): they
still import them from here; point them at `market.web.base` once those land.
"""

from __future__ import annotations

from flask import current_app, redirect, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from market.web.base import ALL_ROLES, actor, bp, engine, roles_required, ruleset

HOME_BY_ROLE = {
    "authority": "pages.authority",
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


__all__ = ["ALL_ROLES", "actor", "bp", "engine", "home", "roles_required", "ruleset"]
