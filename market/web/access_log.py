"""gunicorn's access log without secrets in paths: `scripts/run` passes
`--logger-class market.web.access_log.RedactingLogger`. A password-reset link's token is
its path (`/password/reset/<token>`); the line keeps the route and drops the token, in
every atom that carries the URL (the request line, the path, the referrer, RAW_URI)."""

from __future__ import annotations

import re
from typing import Any

from gunicorn.glogging import Logger

SECRET_PATH = re.compile(r"(/password/reset/)[^/?#\s\"]+")
REDACTED = r"\1[redacted]"


def redact(text: str) -> str:
    return SECRET_PATH.sub(REDACTED, text)


class RedactingLogger(Logger):  # type: ignore[misc]
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {k: redact(v) if isinstance(v, str) else v for k, v in atoms.items()}
