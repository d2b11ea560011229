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
        audit_pages,
        authority_pages,
        buyer_pages,
        calculator_pages,
        casefile_pages,
        certificate_links,
        certificate_pages,
        covenant_pages,
        deal_pages,
        fee_pages,
        funding_pages,
        halt_pages,
        issuance_pages,
        ledger_pages,
        market_pages,
        oidc_pages,
        pages,
        party_admin_pages,
        party_facts_pages,
        party_user_pages,
        password_pages,
        picker_pages,
        price_tape_pages,
        proof_pages,
        registration_pages,
        report_pages,
        seller_pages,
        signin_pages,
        simulator_pages,
        statutory_pages,
        user_admin_pages,
        uth_review_pages,
        verify_pages,
        webhook_pages,
    )


ALL = ("authority", "participant", "auditor")
NAV_ITEMS = [
    ("pages.market", "Market", ALL),
    ("pages.seller", "Selling", ("participant",)),
    ("pages.buyer", "Holdings", ("participant",)),
    ("pages.my_purchases", "My offers and purchases", ("participant",)),
    ("pages.my_sales", "My sales", ("participant",)),
    ("pages.authority", "Approvals", ("authority",)),
    ("pages.allocations", "TECH allocation", ("authority",)),
    ("pages.caps_report", "Caps", ALL),
    ("pages.transfers_report", "Transfers", ("authority", "auditor")),
    ("pages.statutory_reports", "Statutory reports", ("authority", "auditor")),
    ("pages.ledger", "Ledger", ("authority", "auditor")),
    ("pages.account", "Account", ALL),
    ("pages.audit", "Audit", ("authority", "auditor")),
    ("pages.price_tape_page", "Price tape", ALL),
    ("pages.cap_meter", "TECH cap meter", ALL),
    ("pages.tech_calculator", "TECH calculator", ALL),
    ("pages.closing", "Closing", ALL),
    ("pages.covenant_monitor", "Covenants", ("authority", "auditor")),
    ("pages.party_admin", "Parties", ("authority",)),
    ("pages.user_admin", "Users", ("authority",)),
    ("pages.registrations_desk", "Registrations", ("authority", "auditor")),
    ("pages.party_users", "Our users", ("participant",)),
]


def _navigation() -> dict[str, object]:
    from flask import current_app

    from market.web import forms

    return {
        "nav_items": NAV_ITEMS,
        "view_functions": current_app.view_functions,
        "current_nav": current_nav(),
        "field_errors": forms.field_errors(),
    }


def current_nav() -> str | None:
    """The nav item the page belongs to (aria-current): the one whose address is the
    longest prefix of this page's, so /authority/allocations/2014 is "TECH allocation"
    and /authority/parties is not "Approvals"."""
    from flask import request, url_for
    from werkzeug.routing import BuildError

    best, length = None, 0
    for endpoint, _, _ in NAV_ITEMS:
        try:
            path = url_for(endpoint)
        except BuildError:  # an endpoint another area registers may be absent here
            continue
        if (request.path == path or request.path.startswith(path + "/")) and len(path) > length:
            best, length = endpoint, len(path)
    return best


__all__ = ["WebUser", "csrf", "init_web"]
