"""One error body for the whole API: {"error": {"code", "message", "details"}}."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError

from market.domain.errors import DomainError

_CODES = {
    400: "malformed_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "request_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "too_many_requests",
}


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or {}}}


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


def handle_http(e: HTTPException) -> ResponseReturnValue:
    if not _is_api():
        return e
    status = e.code or 500
    fields = _field_messages(e)
    if fields is not None:
        # Schema validation: the request is malformed, not refused by a rule.
        if any(isinstance(m, list) and "Invalid JSON body." in m for m in fields.values()):
            return jsonify(error_body("malformed_json", "The request body is not valid JSON.")), 400
        flat = "; ".join(
            f"{name}: {_sentence(m)}"
            for msgs in fields.values()
            if isinstance(msgs, dict)
            for name, m in msgs.items()
        )
        body = error_body(
            "validation_failed",
            f"The request is not valid: {flat or 'see details'}.",
            {"fields": fields},
        )
        return jsonify(body), 400
    message = e.description or e.name
    if status == 400 and "JSON" in (message or ""):
        message = "The request body is not valid JSON."
    return jsonify(error_body(_CODES.get(status, "http_error"), message)), status


def handle_domain(e: DomainError) -> ResponseReturnValue:
    # Pages register their own handler on their blueprint, which takes precedence.
    return jsonify(error_body(e.code, e.message, dict(e.details or {}))), e.status


def handle_unexpected(e: Exception) -> ResponseReturnValue:
    if isinstance(e, HTTPException):
        return handle_http(e)
    if not _is_api():
        return InternalServerError()
    return jsonify(error_body("internal_error", "Something went wrong on our side.")), 500


def _contains_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_contains_nul(k) or _contains_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_contains_nul(v) for v in value)
    return False


def refuse_nul_characters() -> ResponseReturnValue | None:
    """PostgreSQL text cannot hold NUL, and no field of ours needs one: refuse it up front,
    as malformed input, rather than let the database fail on it."""
    if not _is_api():
        return None
    body = request.get_json(silent=True) if request.is_json else None
    if "\x00" in request.path or _contains_nul(request.args.to_dict()) or _contains_nul(body):
        message = "Text may not contain the NUL character (\\u0000)."
        return jsonify(error_body("malformed_request", message)), 400
    return None


def register(app: Flask) -> None:
    app.before_request(refuse_nul_characters)
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(DomainError, handle_domain)
    app.register_error_handler(Exception, handle_unexpected)
