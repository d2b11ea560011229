"""One error body for the whole API: {"error": {"code", "message", "details"}}."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException

from market.adapters.db import storage_full
from market.api.input_guard import guard_request
from market.document_uploads import raise_upload_limit
from market.domain.errors import DomainError
from market.validation.error_codes import code, http_code, status_of

# What a page says for each status (the pages' own error pages, in the site's layout).
_PAGE_TITLES = {
    400: ("That request could not be read", "Something in the address or the form is not valid."),
    403: ("Not for your role", "You are signed in, but this page is not for your role."),
    404: ("Not found", "There is no such page or record."),
    405: ("Not allowed", "That page does not take this kind of request."),
    413: ("Too large", "What you sent is larger than the service accepts."),
    429: ("Too many attempts", "Wait a moment before you try again."),
    500: ("Something went wrong", "Something went wrong on our side; it was not your doing."),
    503: (
        "Temporarily unavailable",
        "The service cannot reach its database just now. It will "
        "be back by itself; try again in a few seconds.",
    ),
    507: (
        "Storage full",
        "The service's disk is full, so nothing was saved. Reading still works; "
        "try the change again once the operators have freed space.",
    ),
}
OUTAGE_RETRY_AFTER_S = 5


def error_body(name: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": name, "message": message, "details": details or {}}}


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _field_messages(e: HTTPException) -> dict[str, Any] | None:
    data = getattr(e, "data", None) or {}
    messages = data.get("messages")
    return messages if isinstance(messages, dict) else None


def _sentence(messages: Any) -> str:
    if isinstance(messages, dict):
        return "; ".join(f"{k}: {_sentence(v)}" for k, v in messages.items())
    if isinstance(messages, list):
        return " ".join(str(m).rstrip(".") for m in messages)
    return str(messages).rstrip(".")


def render_page_error(status: int, db_down: bool = False, message: str = "") -> Response:
    title, default = _PAGE_TITLES.get(status, ("Error", "The request could not be served."))
    message = message or default
    html = render_template(
        "http_error.html", status=status, title=title, message=message, db_down=db_down
    )
    return Response(html, status=status, mimetype="text/html")


def handle_http(e: HTTPException) -> ResponseReturnValue:
    if not _is_api():
        if e.code is None or e.code < 400:
            return e
        response = render_page_error(e.code)
        allowed = e.get_headers()
        response.headers.extend([(k, v) for k, v in allowed if k.lower() != "content-type"])
        return response
    status = e.code or 500
    fields = _field_messages(e)
    if fields is not None:
        # Schema validation: the request is malformed, not refused by a rule.
        if any(isinstance(m, list) and "Invalid JSON body." in m for m in fields.values()):
            return jsonify(
                error_body(code("malformed_json"), "The request body is not valid JSON.")
            ), 400
        flat = "; ".join(
            f"{name}: {_sentence(m)}"
            for msgs in fields.values()
            if isinstance(msgs, dict)
            for name, m in msgs.items()
        )
        body = error_body(
            code("validation_failed"),
            f"The request is not valid: {flat or 'see details'}.",
            {"fields": fields},
        )
        return jsonify(body), 400
    message = e.description or e.name
    if status == 400 and "JSON" in (message or ""):
        message = "The request body is not valid JSON."
    return jsonify(error_body(http_code(status), message)), status


def handle_domain(e: DomainError) -> ResponseReturnValue:
    # Pages register their own handler on their blueprint, which takes precedence.
    response = jsonify(error_body(e.code, e.message, dict(e.details or {})))
    retry_after = getattr(e, "retry_after", None)
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response, status_of(e)


def handle_outage(e: Exception) -> ResponseReturnValue:
    """The database is unreachable (refused, gone, unreadable): 503 with Retry-After, and
    nothing else to do: the pool reconnects by itself on the next request once it is back.
    The page skips whatever needs the database (the signed-in user's navigation).
    A disk full under the database is 507 `storage_full`: the write was rolled back whole,
    reads go on, and writes succeed again once space is freed."""
    if storage_full(e):
        return _storage_full()
    if _is_api():
        body = error_body(
            code("database_unavailable"),
            "The service cannot reach its database just now; retry shortly.",
        )
        response = jsonify(body)
        response.status_code = 503
    else:
        response = render_page_error(503, db_down=True)
    response.headers["Retry-After"] = str(OUTAGE_RETRY_AFTER_S)
    return response


def _storage_full() -> ResponseReturnValue:
    if _is_api():
        body = error_body(
            code("storage_full"),
            "The database's disk is full; nothing was written. Retry once space is freed.",
        )
        response = jsonify(body)
        response.status_code = 507
    else:
        response = render_page_error(507)
    response.headers["Retry-After"] = str(OUTAGE_RETRY_AFTER_S)
    return response


def handle_unexpected(e: Exception) -> ResponseReturnValue:
    if isinstance(e, HTTPException):
        return handle_http(e)
    if not _is_api():
        return render_page_error(500)
    return jsonify(error_body(code("internal_error"), "Something went wrong on our side.")), 500


def register(app: Flask) -> None:
    app.before_request(raise_upload_limit)  # before the guard reads a form
    app.before_request(guard_request)
    app.register_error_handler(OperationalError, handle_outage)
    app.register_error_handler(InterfaceError, handle_outage)
    # engine.raw_connection() (the prepared statements' path) raises the driver's own
    # errors unwrapped: a refused connection is psycopg's or sqlite3's OperationalError.
    dbapi = app.extensions["market.engine"].dialect.dbapi
    for name in ("OperationalError", "InterfaceError"):
        if dbapi is not None and hasattr(dbapi, name):
            app.register_error_handler(getattr(dbapi, name), handle_outage)
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(DomainError, handle_domain)
    app.register_error_handler(Exception, handle_unexpected)
