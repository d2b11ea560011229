"""The fan-out's reads and writes (services/notify/fanout, inbox, mail_history): the
consumer cursors, the rows an event owes (inbox notices, queued e-mails, webhook
deliveries, public filing references) and the inbox's reads. Functions taking a
Connection run in the caller's transaction; those taking an Engine open their own."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from market.adapters.db import WRITE_OPTION, is_sqlite, write_lock
from market.adapters.eventstore import head, utcnow_iso
from market.adapters.repositories.notify_models import (
    NotificationView,
    Recipient,
    WebhookSubscription,
    notification_of,
    recipient_of,
    webhook_of,
)
from market.adapters.tables import (
    Certificate,
    ConsumerCursor,
    EmailMessage,
    FilingReference,
    Notification,
    Offer,
    RequestTrace,
    Transfer,
    User,
    Webhook,
    WebhookDelivery,
)

cursors_t = ConsumerCursor.__table__  # type: ignore[attr-defined]
mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
notes_t = Notification.__table__  # type: ignore[attr-defined]
users_t = User.__table__  # type: ignore[attr-defined]
hooks_t = Webhook.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
refs_t = FilingReference.__table__  # type: ignore[attr-defined]
traces_t = RequestTrace.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A write transaction beside the ledger's writers (SQLite: BEGIN IMMEDIATE behind the
    same lock file; PostgreSQL: row locks only, no ledger head)."""
    with write_lock(engine), engine.connect() as conn:
        conn = conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            yield conn


def cursor(conn: Connection, name: str, *, lock: bool = False) -> int:
    """The last seq the consumer `name` handled (0 before its first); `lock` holds its row
    for the transaction (PostgreSQL; SQLite's writer is alone already)."""
    stmt = select(cursors_t.c.seq).where(cursors_t.c.name == name)
    if lock and not is_sqlite(conn):
        stmt = stmt.with_for_update()
    found = conn.execute(stmt).scalar()
    return int(found or 0)


def ensure_cursor(engine: Engine, name: str) -> None:
    """The cursor's row, made at seq 0 unless it exists (or another process makes it)."""
    with engine.connect() as conn:
        if conn.execute(select(cursors_t.c.name).where(cursors_t.c.name == name)).first():
            return
    try:
        with write_transaction(engine) as conn:
            conn.execute(insert(cursors_t).values(name=name, seq=0))
    except IntegrityError:
        pass  # another process made it first


def advance_cursor(conn: Connection, name: str, seq: int) -> None:
    conn.execute(update(cursors_t).where(cursors_t.c.name == name).values(seq=seq))


def cursor_lag(engine: Engine, name: str) -> int:
    """Events committed but not yet handled by the consumer `name`."""
    with engine.connect() as conn:
        return head(conn)[0] - cursor(conn, name)


def raise_cursor_to_head(engine: Engine, name: str) -> int:
    """The cursor `name` moved up to the ledger's head (never back); the seq it is at."""
    with write_transaction(engine) as conn:
        now = int(head(conn)[0])
        known = conn.execute(select(cursors_t.c.seq).where(cursors_t.c.name == name)).scalar()
        if known is None:
            conn.execute(insert(cursors_t).values(name=name, seq=now))
        elif int(known) < now:
            conn.execute(update(cursors_t).where(cursors_t.c.name == name).values(seq=now))
        return max(now, int(known or 0))


def active_webhooks(conn: Connection) -> list[WebhookSubscription]:
    return [webhook_of(r) for r in conn.execute(select(hooks_t).where(hooks_t.c.active)).mappings()]


def request_ids(conn: Connection, first: int, last: int) -> dict[int, str]:
    """The request that committed each event from `first` to `last`, where one did."""
    rows = conn.execute(
        select(traces_t.c.seq, traces_t.c.request_id).where(
            traces_t.c.seq >= first, traces_t.c.seq <= last
        )
    )
    return {row.seq: row.request_id for row in rows}


def forget_request_ids(conn: Connection, last: int) -> None:
    conn.execute(delete(traces_t).where(traces_t.c.seq <= last))


def recipients(conn: Connection, concerned: set[str], authority: bool) -> list[Recipient]:
    """The active users of the `concerned` parties, and every Authority user if
    `authority`, by id."""
    if not concerned and not authority:
        return []
    conds = [users_t.c.party_id.in_(concerned)] if concerned else []
    if authority:
        conds.append(users_t.c.role == "authority")
    stmt = select(users_t).where(or_(*conds), users_t.c.active).order_by(users_t.c.id)
    return [recipient_of(r) for r in conn.execute(stmt).mappings()]


def add_notification(conn: Connection, **row: Any) -> None:
    """An inbox notice (id, user_id, seq, type, subject, body, link, created_at)."""
    conn.execute(insert(notes_t).values(**row))


def queue_mail(conn: Connection, **row: Any) -> None:
    """An e-mail into the outbox, pending (id, user_id, seq, type, to_addr, ...)."""
    conn.execute(insert(mail_t).values(**row))


def queue_delivery(conn: Connection, **row: Any) -> None:
    """A webhook message, pending (id, webhook_id, seq, type, next_attempt_at, ...)."""
    conn.execute(insert(deliveries_t).values(**row))


def add_filing_reference(conn: Connection, reference: str, kind: str, entity_id: str) -> None:
    conn.execute(insert(refs_t).values(reference=reference, kind=kind, entity_id=entity_id))


def _row(conn: Connection, table: Any, key: str | None) -> dict[str, Any]:
    if not key:
        return {}
    row = conn.execute(select(table).where(table.c.id == key)).mappings().first()
    return dict(row) if row else {}


def offer_row(conn: Connection, offer_id: str | None) -> dict[str, Any]:
    """The offer's projection row ({} for none)."""
    return _row(conn, offers_t, offer_id)


def transfer_row(conn: Connection, transfer_id: str | None) -> dict[str, Any]:
    return _row(conn, transfers_t, transfer_id)


def certificate_row(conn: Connection, certificate_id: str | None) -> dict[str, Any]:
    return _row(conn, certs_t, certificate_id)


def notifications_page(
    engine: Engine, user_id: str, before: int | None, limit: int, unread_only: bool
) -> list[NotificationView]:
    """Up to `limit` of the user's notices before seq `before`, newest first."""
    stmt = select(notes_t).where(notes_t.c.user_id == user_id)
    if before is not None:
        stmt = stmt.where(notes_t.c.seq < before)
    if unread_only:
        stmt = stmt.where(notes_t.c.read_at.is_(None))
    stmt = stmt.order_by(notes_t.c.seq.desc()).limit(limit)
    with engine.connect() as conn:
        return [notification_of(r) for r in conn.execute(stmt).mappings()]


def mark_notification_read(
    engine: Engine, user_id: str, notification_id: str
) -> NotificationView | None:
    """The user's notice marked read now unless it was; None if it is not theirs."""
    mine = (notes_t.c.id == notification_id) & (notes_t.c.user_id == user_id)
    with write_transaction(engine) as conn:
        conn.execute(
            update(notes_t).where(mine, notes_t.c.read_at.is_(None)).values(read_at=utcnow_iso())
        )
        row = conn.execute(select(notes_t).where(mine)).mappings().first()
    return None if row is None else notification_of(row)


def unread_count(engine: Engine, user_id: str) -> int:
    stmt = (
        select(func.count())
        .select_from(notes_t)
        .where(notes_t.c.user_id == user_id, notes_t.c.read_at.is_(None))
    )
    with engine.connect() as conn:
        return int(conn.execute(stmt).scalar() or 0)
