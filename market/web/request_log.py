"""Every request: an id (X-Request-Id), one log line, one observation in the metrics.

The id is generated here unless a trusted proxy (TRUSTED_PROXIES > 0) sent a well-formed
one; it is bound for the request's length, so every line written meanwhile carries it,
and the unit of work records it beside the events the request commits (request_traces),
so the worker's lines for those events carry it too. The line names the route template
(never the path: a reset link's token is in its path), the status, the duration and the
signed-in user's id; never a body, a header or a query string."""

from __future__ import annotations

import re
import time
import uuid

import structlog
from flask import Flask, Response, current_app, g, request
from structlog.contextvars import bind_contextvars, clear_contextvars

from market.adapters import metrics

HEADER = "X-Request-Id"
WELL_FORMED = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
log = structlog.get_logger("market.http")


def request_id() -> str:
    incoming = request.headers.get(HEADER, "")
    if current_app.config["TRUSTED_PROXIES"] > 0 and WELL_FORMED.match(incoming):
        return incoming
    return uuid.uuid4().hex


def start() -> None:
    clear_contextvars()
    g.request_id = request_id()
    g.request_started = time.perf_counter()
    bind_contextvars(request_id=g.request_id)


def finish(response: Response) -> Response:
    seconds = time.perf_counter() - g.get("request_started", time.perf_counter())
    route = request.url_rule.rule if request.url_rule is not None else "(unmatched)"
    metrics.observe_request(route, request.method, response.status_code, seconds)
    response.headers[HEADER] = g.get("request_id", "")
    log.info(
        "request",
        method=request.method,
        route=route,
        status=response.status_code,
        duration_ms=round(seconds * 1000, 2),
        client=request.remote_addr,
    )
    return response


def register(app: Flask) -> None:
    app.before_request(start)
    app.after_request(finish)
    app.teardown_request(lambda _exc: clear_contextvars())
