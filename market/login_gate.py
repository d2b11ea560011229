"""A WSGI gate in front of Flask for POST /api/v1/auth/token: an attempt on an account or
from an address this process already knows to be locked is refused 429 here, with the
same body and headers the API gives, without Flask's request machinery (a refusal costs
a fraction of a millisecond instead of several). Everything else, including the first
refusal that finds a lock in the database, goes through the app as usual."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Engine

from market.api.errors import error_body
from market.services.identity import throttle
from market.services.identity.throttle import TooManyAttemptsError
from market.web.headers import HSTS

PATH = "/api/v1/auth/token"
MAX_BODY = 8192
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def _email(body: bytes) -> str | None:
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    email = data.get("email") if isinstance(data, dict) else None
    return email if isinstance(email, str) else None


class LoginGate:
    def __init__(self, app: WSGIApp, engine: Engine, headers: list[tuple[str, str]]) -> None:
        self.app = app
        self.engine = engine
        self.headers = headers

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") != PATH:
            return self.app(environ, start_response)
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            return self.app(environ, start_response)
        body = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(body)  # the app reads it as if untouched
        email = _email(body)
        wait = throttle.seen_lock(self.engine, email, environ.get("REMOTE_ADDR")) if email else 0
        if not wait:
            return self.app(environ, start_response)
        refusal = TooManyAttemptsError(wait)
        payload = json.dumps(error_body(refusal.code, refusal.message, refusal.details)).encode()
        start_response(
            "429 TOO MANY REQUESTS",
            [
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(payload))),
                ("Retry-After", str(wait)),
                *self.headers,
                *(
                    [("Strict-Transport-Security", HSTS)]
                    if environ.get("wsgi.url_scheme") == "https"
                    else []
                ),
            ],
        )
        return [payload]
