"""Sign-in, the home page, and the shared plumbing of every page."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Blueprint, abort, current_app, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_required
from sqlalchemy import Engine

from market.domain.errors import DomainError
from market.domain.rulesets import Ruleset, get_ruleset
from market.services.actor import Actor
from market.web.errors import render_domain_error

bp = Blueprint("pages", __name__)
bp.register_error_handler(DomainError, render_domain_error)

F = TypeVar("F", bound=Callable[..., Any])


@bp.before_request
def _protect_forms() -> None:
    if request.method == "POST":
        from market.web import csrf

        csrf.protect()


def engine() -> Engine:
    return current_app.extensions["market.engine"]  # type: ignore[no-any-return]


def actor() -> Actor:
    return current_user.actor  # type: ignore[no-any-return]


def ruleset() -> Ruleset:
    return get_ruleset(current_app.config["RULESET"])


def roles_required(*roles: str) -> Callable[[F], F]:
    """Signed in (else redirect to /login) and one of `roles` (else 403)."""

    def decorate(view: F) -> F:
        @wraps(view)
        @login_required
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if current_user.role not in roles:
                abort(403)
            return view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


ALL_ROLES = ("authority", "participant", "auditor")

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


# The page modules register their routes on `bp`.
from market.web import (  # noqa: E402,F401
    account_pages,
    allocation_pages,
    audit_pages,
    authority_pages,
    buyer_pages,
    certificate_pages,
    deal_pages,
    issuance_pages,
    ledger_pages,
    market_info_pages,
    market_pages,
    party_admin_pages,
    password_pages,
    proof_pages,
    report_pages,
    seller_pages,
    signin_pages,
    user_admin_pages,
    uth_review_pages,
)
