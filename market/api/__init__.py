"""The JSON API (flask-smorest): thin views over the services, one error shape."""

from __future__ import annotations

from importlib import import_module

from flask import Flask
from flask_smorest import Api

from market.api import auth, errors, ledger, parties
from market.api.context import checked_before_answer
from market.api.openapi_errors import ErrorResponses, codes_table, register_components
from market.api.openapi_names import OperationNames
from market.api.principals import KeptPrincipals


def init_api(app: Flask) -> Api:
    app.config.setdefault("API_TITLE", "NJ transfer certificate market")
    app.config.setdefault("API_VERSION", "v1")
    app.config.setdefault("OPENAPI_VERSION", "3.0.3")
    app.config.setdefault("OPENAPI_URL_PREFIX", "/api/v1")
    app.config.setdefault("OPENAPI_JSON_PATH", "openapi.json")
    app.config.setdefault("OPENAPI_SWAGGER_UI_PATH", "docs")
    # Served by the app itself: the service must work without any CDN.
    app.config.setdefault("OPENAPI_SWAGGER_UI_URL", "/static/swagger-ui/")
    api = Api(
        app,
        spec_kwargs={
            "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
            "security": [{"bearer": []}],
            "extra_plugins": [OperationNames(), ErrorResponses()],
            "info": {"description": codes_table()},
        },
    )
    register_components(api.spec)
    for module in (auth, parties, ledger):
        api.register_blueprint(module.blp)
    api.register_blueprint(import_module("market.api.exports").blp)
    api.register_blueprint(import_module("market.api.returns").blp)
    api.register_blueprint(import_module("market.api.tech").blp)
    api.register_blueprint(import_module("market.api.trust").blp)
    for name in ("certificates", "trading", "reports", "statutory"):
        api.register_blueprint(import_module(f"market.api.{name}").blp)
    api.register_blueprint(import_module("market.api.consent").blp)
    api.register_blueprint(import_module("market.api.counters").blp)
    api.register_blueprint(import_module("market.api.notifications").blp)
    api.register_blueprint(import_module("market.api.deals").blp)
    api.register_blueprint(import_module("market.api.public").blp)
    api.register_blueprint(import_module("market.api.webhooks").blp)
    api.register_blueprint(import_module("market.api.audit").blp)
    api.register_blueprint(import_module("market.api.registrations").blp)
    for name in (
        "halts",
        "price_tape",
        "simulator",
        "calculator",
        "funding",
        "covenants",
        "casefiles",
        "board_actions",
    ):  # PRODUCT.md 8.3, 9.1
        api.register_blueprint(import_module(f"market.api.{name}").blp)
    api.register_blueprint(import_module("market.api.exceptions").blp)
    errors.register(app)
    # Bearer principals kept per process, checked under the ledger head (principals.py).
    app.extensions["market.principals"] = KeptPrincipals()
    app.after_request(checked_before_answer)
    return api
