"""E-mail from the outbox over SMTP, by the worker only (never inside a request).

A message that cannot be sent (SMTP down, refused) stays pending and is retried with
exponential backoff until it goes. Each carries a Message-ID made from its outbox id, so
a message sent twice (a worker killed between sending and recording) is recognisably the
same message.
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage as Mime
from email.utils import formatdate
from typing import Any

from sqlalchemy import Engine, update

from market.adapters.tables import EmailMessage
from market.services import clock, delivery
from market.services.delivery import Settings
from market.services.fanout import write_transaction

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]


def mime(row: dict[str, Any], mail_from: str) -> Mime:
    msg = Mime()
    msg["From"] = mail_from
    msg["To"] = row["to_addr"]
    msg["Subject"] = row["subject"]
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = f"<{row['id']}@{mail_from.rpartition('@')[2] or 'market'}>"
    msg["X-Market-Event-Seq"] = str(row["seq"])
    msg.set_content(row["text_body"])
    msg.add_alternative(row["html_body"], subtype="html")
    return msg


def send_due(engine: Engine, settings: Settings, limit: int = 100) -> dict[str, int]:
    """One pass: send what is due; what fails waits for its next attempt."""
    if not settings.smtp_host:
        return {"sent": 0, "failed": 0}
    rows = delivery.claim_due(engine, mail_t, "pending", limit, settings.lease_s)
    sent = failed = 0
    smtp: smtplib.SMTP | None = None
    for row in rows:
        try:
            if smtp is None:
                smtp = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=10)
            smtp.send_message(mime(row, settings.mail_from))
        except (OSError, smtplib.SMTPException) as exc:
            failed += 1
            _failed(engine, settings, row, exc)
            if smtp is not None:
                _quit(smtp)
            smtp = None
            continue
        sent += 1
        with write_transaction(engine) as conn:
            conn.execute(
                update(mail_t)
                .where(mail_t.c.id == row["id"])
                .values(status="sent", sent_at=delivery.now_iso(), attempts=row["attempts"] + 1)
            )
    if smtp is not None:
        _quit(smtp)
    return {"sent": sent, "failed": failed}


def _quit(smtp: smtplib.SMTP) -> None:
    try:
        smtp.quit()
    except (OSError, smtplib.SMTPException):
        smtp.close()


def _failed(engine: Engine, settings: Settings, row: dict[str, Any], exc: BaseException) -> None:
    attempts = int(row["attempts"]) + 1
    retry_at = delivery.iso(clock.now_utc() + delivery.backoff(settings, attempts))
    with write_transaction(engine) as conn:
        conn.execute(
            update(mail_t)
            .where(mail_t.c.id == row["id"])
            .values(attempts=attempts, next_attempt_at=retry_at, last_error=str(exc)[:500])
        )
