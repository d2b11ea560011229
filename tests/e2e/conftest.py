"""Every answer an end-to-end test receives from /api/v1, through Flask's test client or
with `requests` from a live server on a loopback address (gunicorn, the nginx front), is
checked against the app's own OpenAPI document (tests/openapi_check.py): a mismatch fails
the test at the request that got it. With OPENAPI_MISMATCH_LOG=FILE the mismatches are
appended to FILE instead (to list them all in one run while documenting new routes)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from tests.openapi_check import AnswerMismatch, check_answer

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@cache
def reference_app() -> Flask:
    """An app built from the same code as the live servers, for their answers' document
    (the document depends on the code, not on the database, which it never opens)."""
    from market import create_app

    folder = tempfile.mkdtemp(prefix="openapi-reference-")
    return create_app({"DATABASE_URL": f"sqlite:///{folder}/unused.db", "TESTING": True})


def _checked(app: Flask, method: str, path: str, status: int, mimetype: str, body: Any) -> None:
    try:
        check_answer(app, method, path, status, mimetype, body)
    except AnswerMismatch as e:
        log = os.environ.get("OPENAPI_MISMATCH_LOG")
        if not log:
            raise
        with open(log, "a") as out:
            out.write(f"{e}\n")


@pytest.fixture(autouse=True)
def live_answers_match_the_document(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    sent = requests.Session.send

    def send_and_check(
        self: requests.Session, request: requests.PreparedRequest, **kwargs: Any
    ) -> requests.Response:
        response = sent(self, request, **kwargs)
        url = urlsplit(request.url or "")
        if (
            url.hostname in LOOPBACK
            and url.path.startswith("/api/v1/")
            and not kwargs.get("stream")
        ):
            mimetype = response.headers.get("Content-Type", "").split(";")[0].strip()
            body: Any = response.content
            if mimetype == "application/json" and body:
                body = response.json()
            _checked(
                reference_app(),
                request.method or "GET",
                url.path,
                response.status_code,
                mimetype,
                body,
            )
        return response

    monkeypatch.setattr(requests.Session, "send", send_and_check)
    yield


@pytest.fixture(autouse=True)
def answers_match_the_document(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    sent = FlaskClient.open

    def open_and_check(self: FlaskClient, *args: Any, **kwargs: Any) -> Any:
        response = sent(self, *args, **kwargs)
        request = response.request
        body = response.get_json(silent=True) if response.is_json else response.get_data()
        mimetype = response.mimetype or ""
        _checked(
            self.application, request.method, request.path, response.status_code, mimetype, body
        )
        return response

    monkeypatch.setattr(FlaskClient, "open", open_and_check)
    yield
