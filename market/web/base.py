"""The pages blueprint and what every page module shares: the engine, the signed-in
actor, the ruleset, the role guard and the forms' CSRF check.

Page modules import from here and register their routes on `bp`; `market.web.init_web`
imports them all and registers the blueprint (flaskr style). Nothing here imports a page
module.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Blueprint, abort, current_app, request
from flask_login import current_user, login_required
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import Engine

from market.domain.errors import DomainError
from market.domain.rulesets import Ruleset, get_ruleset
from market.services.identity.token_digest import TokenHasher
from market.services.kernel.actor import Actor
from market.web.errors import render_domain_error

bp = Blueprint("pages", __name__)
bp.register_error_handler(DomainError, render_domain_error)

F = TypeVar("F", bound=Callable[..., Any])

ALL_ROLES = ("authority", "participant", "auditor")


csrf = CSRFProtect()  # checked by the blueprint on POST; init_web turns the global check off


@bp.before_request
def _protect_forms() -> None:
    if request.method == "POST":
        csrf.protect()


def engine() -> Engine:
    return current_app.extensions["market.engine"]  # type: ignore[no-any-return]


def token_hasher() -> TokenHasher:
    return current_app.extensions["market.token_hasher"]  # type: ignore[no-any-return]


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
