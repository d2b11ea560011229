"""The error answers in /api/v1/openapi.json, as the service sends them (market/api/errors.py):
one `Error` schema, `{"error": {code, message, details}}`, whose `code` enumerates
market/validation/error_codes.py; one response per status (`Error400` ... `Error503`) listing that
status's codes with an example of each; and, for every operation, the statuses it can
answer (apispec plugin, passed to flask-smorest's Api).

Which statuses an operation can answer, by what it is:
- every operation: 400 (the input guard and the argument schemas), 503 (the database), and
  `default` (500);
- one that needs a bearer token (no `security: []`): 401 and 403;
- one with a path parameter: 404;
- POST, PUT, PATCH, DELETE: 404 (a record named in the body), 409, 413, 422 and 507;
- more, or fewer, by `@blp.doc(**answers(add=(429,), omit=(403,)))` on the view, or by any
  `@blp.alt_response(<4xx/5xx>, description=...)`, whose description is kept.
"""

from __future__ import annotations

import http
from typing import Any

from apispec import APISpec, BasePlugin

from market.validation.error_codes import CODES, at_status

ERROR_STATUSES = (400, 401, 403, 404, 409, 413, 422, 429, 503, 507)
ANSWERS_KEY = "x-market-answers"  # the view's additions and omissions; removed from the doc
WRITES = {"post", "put", "patch", "delete"}
ERROR_REF = {"$ref": "#/components/schemas/Error"}


def answers(add: tuple[int, ...] = (), omit: tuple[int, ...] = ()) -> dict[str, Any]:
    """`@blp.doc(**answers(add=(404,)))`: statuses this view answers beyond, or short of,
    what its kind implies (module docstring)."""
    return {ANSWERS_KEY: {"add": list(add), "omit": list(omit)}}


def error_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "Every error answer of the API.",
        "required": ["error"],
        "additionalProperties": False,
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message", "details"],
                "additionalProperties": False,
                "properties": {
                    "code": {
                        "type": "string",
                        "enum": sorted(CODES),
                        "description": "Stable: see the list in this document's description.",
                    },
                    "message": {"type": "string", "description": "For people; may change."},
                    "details": {
                        "type": "object",
                        "additionalProperties": True,
                        "description": "What the code is about (fields, ids, figures).",
                    },
                },
            }
        },
    }


def error_response(status: int) -> dict[str, Any]:
    codes = at_status(status)
    listed = "; ".join(f"`{c.code}`: {c.meaning}" for c in codes)
    examples = {
        c.code: {"value": {"error": {"code": c.code, "message": c.meaning, "details": {}}}}
        for c in codes
    }
    return {
        "description": f"{http.HTTPStatus(status).phrase}. Codes: {listed}",
        "content": {"application/json": {"schema": ERROR_REF, "examples": examples}},
    }


def codes_table() -> str:
    rows = "\n".join(f"| `{c.code}` | {c.status} | {c.meaning} |" for c in CODES.values())
    return (
        'Every error answer is `{"error": {"code", "message", "details"}}`. '
        "The codes:\n\n| code | status | meaning |\n| --- | --- | --- |\n" + rows
    )


def register_components(spec: APISpec) -> None:
    # flask-smorest's own `Error` (its default error shape, which this API never sends).
    spec.components.schemas.pop("Error", None)
    spec.components.schema("Error", error_schema())
    for status in sorted({*ERROR_STATUSES, 500}):
        spec.components.response(f"Error{status}", error_response(status))


def _statuses(path: str, method: str, op: dict[str, Any]) -> set[int]:
    found = {400, 503}
    if op.get("security") != []:
        found |= {401, 403}
    if "{" in path or method in WRITES:
        found.add(404)
    if method in WRITES:
        found |= {409, 413, 422, 507}  # 507: the database's disk is full
    return found


class ErrorResponses(BasePlugin):
    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for method, op in (operations or {}).items():
            if not isinstance(op, dict):
                continue
            responses = op.setdefault("responses", {})
            declared = op.pop(ANSWERS_KEY, {"add": [], "omit": []})
            statuses = _statuses(path or "", method, op) | set(declared["add"])
            kept: dict[str, str] = {}
            for key in list(responses):
                if key == "default" or int(key) >= 400:
                    value = responses.pop(key)
                    if key != "default":
                        statuses.add(int(key))
                    if isinstance(value, dict) and value.get("description"):
                        kept[str(key)] = value["description"]
            for status in sorted(statuses - set(declared["omit"])):
                ref = {"$ref": f"#/components/responses/Error{status}"}
                if str(status) in kept:
                    content = error_response(status)["content"]
                    ref = {"description": kept[str(status)], "content": content}
                responses[str(status)] = ref
            responses["default"] = {"$ref": "#/components/responses/Error500"}
