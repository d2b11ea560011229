"""Every answer an end-to-end test receives from /api/v1 through Flask's test client is
checked against the app's own OpenAPI document (tests/openapi_check.py): a mismatch fails
the test at the request that got it. With OPENAPI_MISMATCH_LOG=FILE the mismatches are
appended to FILE instead (to list them all in one run while documenting new routes)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.openapi_check import AnswerMismatch, check_answer


@pytest.fixture(autouse=True)
def answers_match_the_document(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    sent = FlaskClient.open

    def open_and_check(self: FlaskClient, *args: Any, **kwargs: Any) -> Any:
        response = sent(self, *args, **kwargs)
        request = response.request
        body = response.get_json(silent=True) if response.is_json else response.get_data()
        try:
            check_answer(
                self.application,
                request.method,
                request.path,
                response.status_code,
                response.mimetype or "",
                body,
            )
        except AnswerMismatch as e:
            log = os.environ.get("OPENAPI_MISMATCH_LOG")
            if not log:
                raise
            with open(log, "a") as out:
                out.write(f"{e}\n")
        return response

    monkeypatch.setattr(FlaskClient, "open", open_and_check)
    yield
