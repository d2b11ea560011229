"""In-memory twins of the notify context's two doors (market.adapters.notifications):
they record what would have gone out and answer as told, so the outbox's bookkeeping is
tested without an SMTP server or a listening receiver."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from typing import Any

from market.adapters.notifications.target_guard import Target


class FakeMailTransport:
    """Accepts every message, or refuses every one with `error`."""

    def __init__(self, error: str | None = None) -> None:
        self.error = error
        self.sent: list[EmailMessage] = []

    def send(self, messages: Sequence[EmailMessage]) -> list[str | None]:
        if self.error is None:
            self.sent.extend(messages)
        return [self.error] * len(messages)


class FakeWebhookPost:
    """Answers every POST with `status`, keeping what was posted where."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.posted: list[dict[str, Any]] = []

    def __call__(
        self, target: Target, headers: Mapping[str, str], body: bytes, timeout: float
    ) -> int:
        self.posted.append({"target": target, "headers": dict(headers), "body": body})
        return self.status
