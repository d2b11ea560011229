"""E-mail over SMTP: a batch of messages over one connection, each answered with its
error (None: accepted by the server). A server that cannot be reached fails the batch."""

from __future__ import annotations

import smtplib
from collections.abc import Sequence
from email.message import EmailMessage
from typing import Protocol


class MailTransport(Protocol):
    def send(self, messages: Sequence[EmailMessage]) -> list[str | None]: ...


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


class SmtpTransport:
    def __init__(self, host: str, port: int, timeout: float = 10.0) -> None:
        self.host, self.port, self.timeout = host, port, timeout

    def send(self, messages: Sequence[EmailMessage]) -> list[str | None]:
        try:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        except (OSError, smtplib.SMTPException) as exc:
            return [_reason(exc)] * len(messages)  # the server is down: all wait
        errors: list[str | None] = []
        for message in messages:
            try:
                smtp.send_message(message)
                errors.append(None)
            except (OSError, smtplib.SMTPException) as exc:
                errors.append(_reason(exc))
        try:
            smtp.quit()
        except (OSError, smtplib.SMTPException):
            smtp.close()
        return errors
