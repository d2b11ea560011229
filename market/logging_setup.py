"""Logs: one line per event, JSON when LOG_FORMAT=json (docs/OPERATIONS.md).

structlog renders; the request id (and the signed-in user's id) are bound in context
variables for the length of a request (market/web/request_log.py), so any line written
meanwhile, by the views or the services, carries them. Lines name fields explicitly:
nothing logs a request's body, headers or a form, so no password, token, reset link or
document content can reach the log.
"""

from __future__ import annotations

import logging
import sys

import structlog


class _Stderr:
    """Whatever sys.stderr is when a line is written (a test's capture, a redirect made
    after start-up), not the one there was when logging was configured."""

    def write(self, text: str) -> None:
        sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


_WRITER = structlog.WriteLogger(_Stderr())  # type: ignore[arg-type]


def configure(log_format: str) -> None:
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer()
        if log_format == "json"
        else structlog.processors.KeyValueRenderer(key_order=["time", "level", "event"])
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True, key="time"),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
        # One writer for every logger: structlog builds a new one per call otherwise
        # (loggers are not cached, so that a later configure() still counts).
        logger_factory=lambda *_: _WRITER,
        cache_logger_on_first_use=False,
    )
