"""E-mail from the outbox over SMTP, by the worker only (never inside a request). Once
sent, a message's one-time link (a password reset) is cut out of its stored body, so the
outbox never holds a usable reset link past its sending. A message that cannot be sent
(SMTP down, refused) stays pending and is retried with exponential backoff until it
goes. Each carries a Message-ID made from its outbox id, so a message sent twice (a
worker killed between sending and recording) is recognisably the same message.
"""

from __future__ import annotations

import re
from email.message import EmailMessage as Mime
from email.utils import formatdate
from typing import Any

from market.adapters.notifications.smtp import MailTransport, SmtpTransport
from market.adapters.repositories import notify_deliveries as deliveries
from market.adapters.repositories.notify_models import OutboxMail
from market.services.kernel import clock
from market.services.kernel.reads import Engine
from market.services.notify import delivery, mail_history
from market.services.notify.delivery import Settings

# A one-time link's secret (a password-reset token): kept in the outbox only until the
# message is sent; the sent row keeps a body that says the link was there.
SECRET_LINK = re.compile(r"/password/reset/[A-Za-z0-9_\-]{16,}")
SPENT = "/password/reset/(link removed from the outbox once sent)"


def without_secrets(mail: OutboxMail) -> dict[str, str]:
    """The bodies to keep once sent: any one-time link cut out."""
    bodies = {"text_body": mail.text_body, "html_body": mail.html_body}
    return {
        key: SECRET_LINK.sub(SPENT, body)
        for key, body in bodies.items()
        if SECRET_LINK.search(body or "")
    }


def mime(mail: OutboxMail, mail_from: str) -> Mime:
    msg = Mime()
    msg["From"] = mail_from
    msg["To"] = mail.to_addr
    msg["Subject"] = mail.subject
    msg["Date"] = formatdate(usegmt=True)
    msg["Message-ID"] = f"<{mail.id}@{mail_from.rpartition('@')[2] or 'market'}>"
    msg["X-Market-Event-Seq"] = str(mail.seq)
    msg.set_content(mail.text_body)
    msg.add_alternative(mail.html_body, subtype="html")
    return msg


def send_due(
    engine: Engine, settings: Settings, limit: int = 100, transport: MailTransport | None = None
) -> dict[str, int]:
    """One pass: send what is due in one batch (SMTP_HOST's server unless a `transport` is
    given); what fails waits for its next attempt. The pass's outcomes are recorded
    together (one transaction)."""
    if not settings.smtp_host:
        return {"sent": 0, "failed": 0}
    rows = deliveries.claim_due_mail(
        engine, mail_history.HISTORY, limit, settings.lease_s, clock.now_utc
    )
    if not rows:
        return {"sent": 0, "failed": 0}
    transport = transport or SmtpTransport(settings.smtp_host, settings.smtp_port)
    errors = transport.send([mime(row, settings.mail_from) for row in rows])
    outcomes = list(zip(rows, errors, strict=True))
    _record(engine, settings, outcomes)
    sent = sum(1 for _, error in outcomes if error is None)
    return {"sent": sent, "failed": len(outcomes) - sent}


def _record(
    engine: Engine, settings: Settings, outcomes: list[tuple[OutboxMail, str | None]]
) -> None:
    now = clock.now_utc()
    changes: list[tuple[str, dict[str, Any]]] = []
    for mail, error in outcomes:
        attempts = mail.attempts + 1
        if error is None:
            sent = {"status": "sent", "sent_at": delivery.iso(now)} | without_secrets(mail)
            changes.append((mail.id, {"attempts": attempts, **sent}))
        else:
            retry_at = delivery.iso(now + delivery.backoff(settings, attempts))
            retry = {"next_attempt_at": retry_at, "last_error": error[:500]}
            changes.append((mail.id, {"attempts": attempts, **retry}))
    deliveries.record_mail(engine, changes)
