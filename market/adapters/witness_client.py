"""The log's side of C2SP tlog-witness: one `POST <url>/add-checkpoint` with a timeout
(the standard library's urllib: `requests` is not a runtime dependency)."""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request

MAX_ANSWER = 64 * 1024


class WitnessUnreachable(Exception):
    """No answer: refused, timed out, not HTTP."""


def add_checkpoint(url: str, body: bytes, timeout: float) -> tuple[int, str]:
    """(status, body as text) of the witness's answer, whatever the status."""
    request = urllib.request.Request(
        url.rstrip("/") + "/add-checkpoint",
        data=body,
        method="POST",
        headers={"Content-Type": "text/plain; charset=utf-8"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, answer.read(MAX_ANSWER).decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        with e:
            return e.code, e.read(MAX_ANSWER).decode("utf-8", "replace")
    # URLError, timeouts and refusals are OSErrors; HTTPException: an answer that is not HTTP
    except (OSError, ValueError, http.client.HTTPException) as e:
        raise WitnessUnreachable(f"{url}: {e}") from e
