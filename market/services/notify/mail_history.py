"""History that is not mailed: the events a demo seeding or a records import wrote are the
past, told in the inbox but never e-mailed (issue 28: the first start with SMTP set sent
50 mails for the seeded demo). The cursor `mail-history` holds the last such event's seq;
the mailer sends only messages of later events (and those of no event: seq 0, a password
reset or a verification link)."""

from __future__ import annotations

from sqlalchemy import Engine, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from market.adapters.eventstore import head
from market.adapters.tables import ConsumerCursor, EmailMessage
from market.services.notify.fanout import cursor, write_transaction

HISTORY = "mail-history"
cursors_t = ConsumerCursor.__table__  # type: ignore[attr-defined]
mail_t = EmailMessage.__table__  # type: ignore[attr-defined]


def mark_history(engine: Engine) -> int:
    """Everything in the ledger so far is history: its e-mails are not sent. Returns the
    seq up to which (the cursor only moves forward)."""
    with write_transaction(engine) as conn:
        now = int(head(conn)[0])
        known = conn.execute(select(cursors_t.c.seq).where(cursors_t.c.name == HISTORY)).scalar()
        if known is None:
            conn.execute(insert(cursors_t).values(name=HISTORY, seq=now))
        elif int(known) < now:
            conn.execute(update(cursors_t).where(cursors_t.c.name == HISTORY).values(seq=now))
        return max(now, int(known or 0))


def mailable(conn: Connection) -> ColumnElement[bool]:
    """The outbox rows the mailer may send: none of an event marked as history."""
    last = cursor(conn, HISTORY)
    return or_(mail_t.c.seq == 0, mail_t.c.seq > last)
