"""History that is not mailed: the events a demo seeding or a records import wrote are the
past, told in the inbox but never e-mailed (issue 28: the first start with SMTP set sent
50 mails for the seeded demo). The cursor `mail-history` holds the last such event's seq;
the mailer sends only messages of later events (and those of no event: seq 0, a password
reset or a verification link)."""

from __future__ import annotations

from market.adapters.repositories import notify_outbox as outbox
from market.services.kernel.reads import Engine

HISTORY = "mail-history"


def mark_history(engine: Engine) -> int:
    """Everything in the ledger so far is history: its e-mails are not sent. Returns the
    seq up to which (the cursor only moves forward)."""
    return outbox.raise_cursor_to_head(engine, HISTORY)
