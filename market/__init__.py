"""NJ tax credit transfer certificate marketplace ledger."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from market import logging_setup
from market.adapters import metrics
from market.adapters.db import make_engine
from market.config import ROOT, from_environment, instance_secret_key, token_hash_key
from market.services.identity import passwords
from market.services.identity.token_digest import TokenHasher
from market.services.kernel import clock
from market.services.kernel.group_commit import GroupCommitter
from market.services.notify import mail_render


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder="static",
    )
    app.config.update(from_environment(app.instance_path))
    if config:
        app.config.update(config)
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)  # it holds the keys
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(app.instance_path)
    logging_setup.configure(app.config["LOG_FORMAT"])
    clock.configure(app.config.get("MARKET_TODAY"))
    passwords.configure(
        app.config["PASSWORD_HASH_CONCURRENCY"], app.config["PASSWORD_HASH_WAIT_SECONDS"]
    )
    mail_render.configure(app.config["PUBLIC_BASE_URL"])
    # create_engine connects lazily: nothing touches the database until a request needs it.
    engine = make_engine(app.config["DATABASE_URL"], echo=app.config["SQL_ECHO"])
    app.extensions["market.engine"] = engine
    # One writer per process: concurrent requests' units of work share a commit.
    app.extensions["market.writer"] = GroupCommitter(
        engine,
        max_batch=app.config["WRITE_BATCH_MAX"],
        max_wait_s=app.config["WRITE_BATCH_WAIT_MS"] / 1000,
        on_batch=metrics.observe_write_batch,
    )
    signer_url = app.config.get("SIGNER_DATABASE_URL")
    # The checkpoint maker's connection; one machine, one role: the same engine.
    app.extensions["market.signer_engine"] = (
        make_engine(signer_url, echo=app.config["SQL_ECHO"])
        if signer_url and signer_url != app.config["DATABASE_URL"]
        else engine
    )
    app.extensions["market.token_hasher"] = TokenHasher(
        token_hash_key(app.config.get("TOKEN_HASH_KEY_FILE"), app.instance_path)
    )

    from market.api import init_api
    from market.cli import register_commands
    from market.web import init_web

    init_api(app)
    init_web(app)
    register_commands(app)
    from market.web import ops, request_log

    ops.register(app)
    request_log.register(app)
    from market.login_gate import LoginGate
    from market.web.headers import FIXED_HEADERS

    app.wsgi_app = LoginGate(  # type: ignore[method-assign]
        app.wsgi_app, engine, [*FIXED_HEADERS, ("Cache-Control", "no-store")]
    )
    from market.body_limit import ChunkedBodyLimit
    from market.document_uploads import UPLOAD_PATHS, upload_body_limit

    uploads = dict.fromkeys(UPLOAD_PATHS, upload_body_limit(app.config))
    app.wsgi_app = ChunkedBodyLimit(  # type: ignore[method-assign]
        app.wsgi_app, app.config["MAX_CONTENT_LENGTH"], uploads
    )
    proxies = app.config["TRUSTED_PROXIES"]
    if proxies:
        # Believe X-Forwarded-For/-Proto/-Host from that many proxies in front (throttling
        # by client address, HSTS and Secure cookies need the real ones).
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )
    return app
