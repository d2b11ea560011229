"""The API document is exact (PRODUCT.md 9.3, issue 27): it validates as OpenAPI 3.0; every
operation describes each success answer with a schema (or its media type, for a file);
every error status it can answer refers to the one error shape errors.py sends; the error
codes are the registry's, and the registry is the error classes' codes and the handler's."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from market.domain.casefile_errors import DocumentTooLargeError
from market.domain.errors import DomainError, TrancheAtRiskError
from market.domain.rules.uth_held_tranches import WITHHELD
from market.services.kernel.errors import LedgerEmptyError
from market.validation.error_codes import CODES, UNLISTED_STATUS, status_of
from tests.error_code_scan import class_codes, error_classes, handler_codes, per_instance_sites
from tests.openapi_check import AnswerMismatch, check_answer

ERROR_RESPONSE_STATUSES = {
    *("400", "401", "403", "404", "409", "413", "415", "422", "429", "503", "507")
}


def spec_of(client: Any) -> dict[str, Any]:
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200
    return r.json  # type: ignore[no-any-return]


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (m, p, op) for p, ops in spec["paths"].items() for m, op in ops.items() if m != "parameters"
    ]


def test_the_document_validates_as_openapi_3(client: Any) -> None:
    spec = spec_of(client)
    assert spec["openapi"] == "3.0.3"
    validate(spec)
    broken = spec | {"paths": {"/x": {"get": {"responses": {"200": {}}}}}}
    with pytest.raises(OpenAPIValidationError):  # the validator does refuse a bad one
        validate(broken)


def test_every_success_answer_has_a_schema_and_every_error_the_real_shape(client: Any) -> None:
    spec = spec_of(client)
    ops = operations(spec)
    assert len(ops) >= 68
    for method, path, op in ops:
        where = f"{method} {path}"
        success = {s: r for s, r in op["responses"].items() if s.startswith("2")}
        assert success, where
        for status, answer in success.items():
            content = answer.get("content") or {}
            assert content or status == "204", f"{where} {status}"
            for media, body in content.items():
                assert "schema" in body, f"{where} {status} {media}"
        errors = {s for s in op["responses"] if s[0] in "45"}
        assert {"400", "503"} <= errors, where
        assert errors <= ERROR_RESPONSE_STATUSES, where
        for status in errors:
            ref = op["responses"][status]
            content = ref.get("content") or spec["components"]["responses"][
                ref["$ref"].rsplit("/", 1)[1]
            ].get("content")
            assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
        if op.get("security") != []:
            assert {"401", "403"} <= errors, where
        if "{" in path:
            assert "404" in errors, where
        if method == "post":
            assert {"404", "409", "413", "422"} <= errors, where
    by_op = {op["operationId"]: op for _, _, op in ops}
    assert "429" in by_op["issue_token"]["responses"]
    assert "429" in by_op["inclusion"]["responses"]
    assert "text/csv" in by_op["transfers_csv"]["responses"]["200"]["content"]


def test_the_error_schema_is_what_is_sent_and_lists_every_code(client: Any) -> None:
    spec = spec_of(client)
    error = spec["components"]["schemas"]["Error"]
    assert error["properties"]["error"]["required"] == ["code", "message", "details"]
    assert error["properties"]["error"]["properties"]["code"]["enum"] == sorted(CODES)
    for name, entry in CODES.items():
        assert f"`{name}` | {entry.status} |" in spec["info"]["description"]
    described = spec["components"]["responses"]["Error409"]
    assert "`idempotency_key_reused`" in described["description"]
    assert "idempotency_key_reused" in described["content"]["application/json"]["examples"]
    # A live refusal validates against it; flask-smorest's default shape does not.
    r = client.post("/api/v1/auth/token", json={"email": "x@y.test"})
    assert r.status_code == 400 and r.json["error"]["code"] == "validation_failed"
    app = client.application
    check_answer(app, "POST", "/api/v1/auth/token", 400, "application/json", r.json)
    smorest = {"code": 400, "status": "Bad Request", "message": "x", "errors": {}}
    with pytest.raises(AnswerMismatch):
        check_answer(app, "POST", "/api/v1/auth/token", 400, "application/json", smorest)
    with pytest.raises(AnswerMismatch, match="listed at 404"):  # a code at the wrong status
        body = {"error": {"code": "not_found", "message": "m", "details": {}}}
        check_answer(app, "POST", "/api/v1/auth/token", 400, "application/json", body)


# The codes only the API's handler answers (no class: werkzeug's errors, the input guard,
# the database's outages, the last resort); the handler writes others too, which are classes.
HANDLER_ONLY = {
    *("malformed_request", "malformed_json", "number_too_large", "too_deeply_nested"),
    *("bidi_control_characters", "method_not_allowed", "request_too_large"),
    *("too_many_requests", "internal_error", "http_error", "service_unavailable"),
    *("database_unavailable", "storage_full"),
}
# Where a code is still set per instance, or a family without a code is made: the input
# guard (answered by the handler), and the records import's row refusals (a row's code in
# the import's report, not an answer's error code; their codes are not in the registry).
PER_INSTANCE = {
    "market/api/input_guard.py:UnsafeInputError",
    "market/domain/rules/records.py:RecordValueError",
    "market/services/records/import_rows.py:RecordValueError",
    "market/services/records/import_rows.py:RowRefused",
}


def test_the_registry_is_the_error_classes_codes_and_the_handlers() -> None:
    """One class per code, no status on any (the registry gives it): the classes' codes
    and the handler's own are exactly the registry's, each listed once at one status."""
    by_code = class_codes()
    assert len(by_code) >= 80
    assert {c: names for c, names in by_code.items() if len(names) > 1} == {}
    assert [c for c in error_classes() if "status" in vars(c)] == []
    assert set(by_code) | HANDLER_ONLY == set(CODES)
    assert HANDLER_ONLY.isdisjoint(by_code), "a handler-only code has a class"
    assert handler_codes() >= HANDLER_ONLY
    assert per_instance_sites() == PER_INSTANCE, "give the new code a class of its own"
    assert {CODES[cls.code].status for cls in WITHHELD.values()} == {422}


def test_an_error_is_answered_at_its_listed_status() -> None:
    refused = TrancheAtRiskError("m")
    assert status_of(refused) == 422
    assert status_of(LedgerEmptyError("m")) == 409
    assert status_of(DocumentTooLargeError("m")) == 413
    unlisted = type("UnlistedError", (DomainError,), {"code": "not_in_the_list"})
    assert status_of(unlisted("m")) == UNLISTED_STATUS == 422


def test_a_live_servers_answer_is_checked_too() -> None:
    """`requests` to a loopback /api/v1 server goes through the same check: a server that
    answers flask-smorest's default error shape fails the request that got it."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    import requests

    class Smorest(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.dumps({"code": 400, "status": "Bad Request", "errors": {}}).encode()
            self.send_response(400)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Smorest)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/api/v1/auth/token"
        with pytest.raises(AnswerMismatch, match="POST /api/v1/auth/token -> 400"):
            requests.post(url, json={}, timeout=5)
        outside = f"http://127.0.0.1:{server.server_port}/elsewhere"
        assert requests.post(outside, json={}, timeout=5).status_code == 400  # not ours
    finally:
        server.shutdown()
        server.server_close()
