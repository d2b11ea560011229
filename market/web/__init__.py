"""Server-rendered pages over the same services as the API (Flask-Login, CSRF on forms)."""

from __future__ import annotations

from flask import Flask
from flask_login import LoginManager

from market.web.base import csrf
from market.web.session import CookieSessions, WebUser, load_user

login_manager = LoginManager()
login_manager.login_view = "pages.login"
login_manager.login_message = "Please sign in to see that page."
login_manager.user_loader(load_user)


def init_web(app: Flask) -> None:
    from market.web import base, filters, headers

    _import_page_modules()

    # The JSON API authenticates with bearer tokens, not cookies, so only the pages'
    # forms need CSRF tokens: the pages blueprint calls csrf.protect() itself.
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)
    # Flask already holds these keys (SAMESITE None), so setdefault would change nothing.
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.session_interface = CookieSessions()
    csrf.init_app(app)
    login_manager.init_app(app)
    app.register_blueprint(base.bp)
    app.context_processor(_navigation)
    filters.register(app)
    headers.register(app)


def _import_page_modules() -> None:
    """Each page module registers its routes on `base.bp` when imported (flaskr style:
    the package names its modules; no module imports another's routes)."""
    from market.web import (  # noqa: F401
        account_pages,
        allocation_pages,
        apply_pages,
        audit_pages,
        authority_pages,
        buyer_pages,
        calculator_pages,
        casefile_pages,
        certificate_links,
        certificate_pages,
        covenant_pages,
        deal_pages,
        exception_pages,
        exchange_date_pages,
        fee_pages,
        funding_pages,
        halt_pages,
        issuance_pages,
        ledger_pages,
        market_pages,
        offer_pages,
        oidc_pages,
        pages,
        paper_filing_pages,
        party_admin_pages,
        party_facts_pages,
        party_user_pages,
        password_pages,
        picker_pages,
        price_tape_pages,
        proof_pages,
        propose_pages,
        registration_pages,
        report_pages,
        seller_pages,
        signin_pages,
        simulator_pages,
        statutory_pages,
        tech_application_pages,
        todo_pages,
        user_admin_pages,
        uth_review_pages,
        verify_pages,
        webhook_pages,
    )


def _navigation() -> dict[str, object]:
    from flask import current_app
    from flask_login import current_user

    from market.web import forms, navigation

    role = getattr(current_user, "role", None)
    return {
        "nav_menu": navigation.menu(role, set(current_app.view_functions)),
        "current_nav": navigation.current_nav(),
        "field_errors": forms.field_errors(),
    }


__all__ = ["WebUser", "csrf", "init_web"]
