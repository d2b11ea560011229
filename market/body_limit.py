"""A body sent without Content-Length (`Transfer-Encoding: chunked`) is held to
MAX_CONTENT_LENGTH as one with it is: read here up to one byte past the limit; over it,
the request goes on with a Content-Length past the limit and no body, so the app answers
413 `request_too_large` in its own shape (the JSON error, or the styled page), exactly as
for a declared body too large. Within it, the body read is handed on with its length.

Without this, Werkzeug stops reading a chunked body at the limit and the view parses the
truncated part (a 2.5 MiB JSON body answered 400 `malformed_json`).

`larger` names the paths whose POSTs may carry more (the exhibit uploads: DOCUMENT_MAX_BYTES
and the multipart envelope, as document_uploads.raise_upload_limit allows a declared one)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from typing import Any

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ChunkedBodyLimit:
    def __init__(
        self, app: Wsgi, max_bytes: int | None, larger: Mapping[str, int] | None = None
    ) -> None:
        self.app, self.max_bytes, self.larger = app, max_bytes, dict(larger or {})

    def limit_for(self, environ: dict[str, Any]) -> int | None:
        if environ.get("REQUEST_METHOD") == "POST" and self.max_bytes is not None:
            return self.larger.get(environ.get("PATH_INFO", ""), self.max_bytes)
        return self.max_bytes

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        limit = self.limit_for(environ)
        if limit is not None and chunked:
            body = _read_up_to(environ["wsgi.input"], limit + 1)
            if len(body) > limit:
                environ["wsgi.input"] = io.BytesIO(b"")
                environ["CONTENT_LENGTH"] = str(limit + 1)
            else:
                environ["wsgi.input"] = io.BytesIO(body)
                environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        return self.app(environ, start_response)


def _read_up_to(stream: Any, limit: int) -> bytes:
    parts, have = [], 0
    while have < limit:
        part = stream.read(min(65536, limit - have))
        if not part:
            break
        parts.append(part)
        have += len(part)
    return b"".join(parts)
