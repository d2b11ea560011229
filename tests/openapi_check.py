"""Checks an answer of /api/v1 against the app's own /api/v1/openapi.json: the route is
documented, the status is documented for its operation, the media type is, and a JSON body
validates against the documented schema (OpenAPI 3.0 rules: `nullable`, no extra
properties where the schema says so); an error's code is listed at that status."""

from __future__ import annotations

import re
from typing import Any
from weakref import WeakKeyDictionary

from flask import Flask
from openapi_schema_validator import OAS30Validator
from werkzeug.exceptions import MethodNotAllowed, NotFound

from market.api.openapi_errors import ERROR_REF
from market.validation.error_codes import CODES

SPEC_PATH = "/api/v1/openapi.json"
UNDOCUMENTED = ("/api/v1/openapi.json", "/api/v1/docs")  # the document and its viewer
_specs: WeakKeyDictionary[Flask, dict[str, Any]] = WeakKeyDictionary()


class AnswerMismatch(AssertionError):
    pass


def spec_for(app: Flask) -> dict[str, Any]:
    if app not in _specs:
        api = next(iter(app.extensions["flask-smorest"]["blp_name_to_api"].values()))
        with app.test_request_context():
            _specs[app] = api.spec.to_dict()
    return _specs[app]


def _operation(app: Flask, spec: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    adapter = app.url_map.bind("market.test")
    try:
        rule, _ = adapter.match(path, method=method, return_rule=True)
    except (NotFound, MethodNotAllowed):
        return None
    templated = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
    ops = spec["paths"].get(templated)
    if ops is None:
        raise AnswerMismatch(f"{method} {templated} is not in the API document")
    op = ops.get(method.lower())
    if op is None:
        raise AnswerMismatch(f"{method} {templated}: the document has no such operation")
    return op  # type: ignore[no-any-return]


def _resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        *_, kind, name = node["$ref"].split("/")
        node = spec["components"][kind][name]
    return node


def check_answer(app: Flask, method: str, path: str, status: int, mimetype: str, body: Any) -> None:
    """Raise AnswerMismatch when the answer is not what the document says."""
    if not path.startswith("/api/v1/") or path.startswith(UNDOCUMENTED) or method == "HEAD":
        return
    spec = spec_for(app)
    op = _operation(app, spec, method, path)
    where = f"{method} {path} -> {status}"
    if op is None:  # no such route, or not with this method: the error shape
        response = {"content": {"application/json": {"schema": ERROR_REF}}}
    else:
        responses = op["responses"]
        if str(status) not in responses and not (status >= 500 and "default" in responses):
            raise AnswerMismatch(f"{where}: status not documented ({sorted(responses)})")
        response = _resolve(spec, responses.get(str(status)) or responses["default"])
    content = response.get("content") or {}
    if status == 204 or (not content and body in (None, b"", "")):
        return
    if mimetype not in content:
        raise AnswerMismatch(f"{where}: {mimetype} not documented ({sorted(content)})")
    if mimetype != "application/json":
        return
    schema = content[mimetype].get("schema")
    if schema is None:
        raise AnswerMismatch(f"{where}: no schema documented")
    root = {"allOf": [schema], "components": spec["components"]}
    errors = sorted(OAS30Validator(root).iter_errors(body), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        at = "/".join(str(p) for p in first.absolute_path)
        raise AnswerMismatch(f"{where}: at /{at}: {first.message[:300]} ({len(errors)} errors)")
    if status >= 400 and isinstance(body, dict):
        code = body["error"]["code"]
        if CODES[code].status != status:
            raise AnswerMismatch(f"{where}: `{code}` is listed at {CODES[code].status}")
