"""A chunked body (no Content-Length) over MAX_CONTENT_LENGTH answers 413 as a declared
one does (issue 27: it answered 400 malformed_json); one within it is read whole."""

from __future__ import annotations

import io
import json
from typing import Any

from tests.helpers import events, headers_for, party_body


def chunked(client: Any, body: bytes, headers: dict[str, str]) -> Any:
    return client.post(
        "/api/v1/parties",
        input_stream=io.BytesIO(body),
        content_type="application/json",
        headers=headers | {"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_a_chunked_body_over_the_limit_is_413(client: Any, app: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    before = events(app.extensions["market.engine"])
    big = json.dumps(party_body(name="a" * (5 * 1024 * 1024 // 2))).encode()  # 2.5 MiB
    r = chunked(client, big, eda)
    assert r.status_code == 413 and r.json["error"]["code"] == "request_too_large", r.json
    assert events(app.extensions["market.engine"]) == before


def test_a_chunked_body_within_the_limit_is_read_whole(client: Any, app: Any) -> None:
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    r = chunked(client, json.dumps(party_body(name="Chunked Co")).encode(), eda)
    assert r.status_code == 201 and r.json["name"] == "Chunked Co", r.json


def test_an_exhibit_sent_chunked_may_be_larger_than_max_content_length(
    client: Any, app: Any
) -> None:
    """The upload path keeps its own limit (DOCUMENT_MAX_BYTES) when sent chunked: a 1.5 MiB
    body reaches the view (which refuses the form for its own reasons, not as too large);
    past DOCUMENT_MAX_BYTES and its envelope it is 413 as any body over its limit."""
    eda = headers_for(client, app.extensions["market.engine"], "authority")
    boundary = "xyz"
    part = b"%PDF-1.7\n" + b"0" * (1536 * 1024)
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n'
            "Content-Type: application/pdf\r\n\r\n"
        ).encode()
        + part
        + f"\r\n--{boundary}--\r\n".encode()
    )
    assert len(body) > app.config["MAX_CONTENT_LENGTH"]

    def send(data: bytes) -> Any:
        return client.post(
            "/api/v1/documents",
            input_stream=io.BytesIO(data),
            content_type=f"multipart/form-data; boundary={boundary}",
            headers=eda | {"Transfer-Encoding": "chunked"},
            environ_overrides={"wsgi.input_terminated": True},
        )

    r = send(body)
    assert r.status_code == 422, r.json
    assert r.json["error"]["code"] == "invalid_request", r.json  # the form lacks its fields
    app.config["DOCUMENT_MAX_BYTES"] = 1024 * 1024  # read per request by the view's limit
    too_big = send(body + b"0" * (app.config["MAX_CONTENT_LENGTH"]))
    assert too_big.status_code == 413
