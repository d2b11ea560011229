"""The delivery channels' reads and writes (services/notify/mailer, webhook_sender): due
rows claimed under a lease, and each pass's outcomes recorded.

A row is due when `next_attempt_at` has passed. A sender *claims* a row by moving its
`next_attempt_at` a lease ahead, in a conditional UPDATE that only one sender can win, so
two workers never send the same row at once. Each function opens its own connection or
transaction, as the senders had them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Engine, Table, insert, or_, select, true, update

from market.adapters.eventstore import Event, event_from_row, events_t
from market.adapters.repositories.notify_models import (
    OutboxMail,
    Row,
    WebhookMessage,
    WebhookSubscription,
    delivery_of,
    outbox_mail_of,
    webhook_of,
)
from market.adapters.repositories.notify_outbox import cursor, write_transaction
from market.adapters.tables import EmailMessage, Webhook, WebhookAttempt, WebhookDelivery

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
hooks_t = Webhook.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
attempts_t = WebhookAttempt.__table__  # type: ignore[attr-defined]
T = TypeVar("T")
Outcome = TypeVar("Outcome")


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class DueClaim:
    """What a sender claims: up to `limit` of `table`'s rows in status `pending` whose
    attempt is due at `now` (and that match `where`), each for a lease of `lease_s`."""

    table: Table
    pending: str
    limit: int
    lease_s: float
    now: datetime
    where: ColumnElement[bool] | None = None


def _claim_due(engine: Engine, claim: DueClaim, read: Callable[[Row], T]) -> list[T]:
    """Claim the due rows (oldest first) for this sender, each read by `read`."""
    table = claim.table
    stmt = (
        select(table)
        .where(table.c.status == claim.pending, table.c.next_attempt_at <= _iso(claim.now))
        .where(true() if claim.where is None else claim.where)
        .order_by(table.c.next_attempt_at, table.c.seq)
        .limit(claim.limit)
    )
    with engine.connect() as conn:
        due = list(conn.execute(stmt).mappings())
    if not due:
        return []
    claimed = []
    lease_end = _iso(claim.now + timedelta(seconds=claim.lease_s))
    with write_transaction(engine) as conn:
        for row in due:
            won = conn.execute(
                update(table)
                .where(table.c.id == row["id"], table.c.next_attempt_at == row["next_attempt_at"])
                .values(next_attempt_at=lease_end)
            )
            if won.rowcount == 1:
                claimed.append(read(row))
    return claimed


def claim_due_mail(
    engine: Engine, history: str, limit: int, lease_s: float, now: Callable[[], datetime]
) -> list[OutboxMail]:
    """The outbox's due e-mails, claimed: none of an event up to the cursor `history`
    (the past a seeding or an import wrote), any of no event (seq 0)."""
    with engine.connect() as conn:
        last = cursor(conn, history)
    sendable = or_(mail_t.c.seq == 0, mail_t.c.seq > last)
    claim = DueClaim(mail_t, "pending", limit, lease_s, now(), sendable)
    return _claim_due(engine, claim, outbox_mail_of)


def record_mail(engine: Engine, changes: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Each (outbox id, new column values) of a pass, in one transaction."""
    with write_transaction(engine) as conn:
        for mail_id, values in changes:
            conn.execute(update(mail_t).where(mail_t.c.id == mail_id).values(**values))


def claim_due_deliveries(
    engine: Engine, limit: int, lease_s: float, now: datetime
) -> list[WebhookMessage]:
    """Due webhook messages of subscriptions that are active and not paused, claimed."""
    sending = select(hooks_t.c.id).where(hooks_t.c.active, hooks_t.c.paused.is_(None))
    where = deliveries_t.c.webhook_id.in_(sending)
    claim = DueClaim(deliveries_t, "pending", limit, lease_s, now, where)
    return _claim_due(engine, claim, delivery_of)


def hooks_and_events(
    engine: Engine, messages: list[WebhookMessage]
) -> tuple[dict[str, WebhookSubscription], dict[int, Event]]:
    """The subscriptions and the events of these messages, by id and by seq."""
    with engine.connect() as conn:
        ids = {m.webhook_id for m in messages}
        found = conn.execute(select(hooks_t).where(hooks_t.c.id.in_(ids))).mappings()
        hooks = {h.id: h for h in map(webhook_of, found)}
        seqs = {m.seq for m in messages}
        events = {
            e.seq: event_from_row(e)
            for e in conn.execute(select(events_t).where(events_t.c.seq.in_(seqs)))
        }
    return hooks, events


@dataclass(frozen=True)
class AttemptRecord:
    """One attempt as the log keeps it, and what it does to its message (`next_state`'s
    columns) and subscription (`gone`: the receiver answered 410, it is disabled)."""

    id: str
    message: WebhookMessage
    attempted_at: str
    status_code: int | None
    error: str | None
    duration_ms: int
    gone: bool
    next_state: dict[str, str | int]


def record_attempts(
    engine: Engine, outcomes: list[Outcome], record_of: Callable[[Outcome], AttemptRecord]
) -> None:
    """Every outcome of a pass in one transaction, each read by `record_of` in it."""
    with write_transaction(engine) as conn:
        for outcome in outcomes:
            rec = record_of(outcome)
            row = rec.message
            if rec.gone:
                conn.execute(
                    update(hooks_t).where(hooks_t.c.id == row.webhook_id).values(paused="gone")
                )
            conn.execute(
                insert(attempts_t).values(
                    id=rec.id,
                    delivery_id=row.id,
                    webhook_id=row.webhook_id,
                    seq=row.seq,
                    attempted_at=rec.attempted_at,
                    status_code=rec.status_code,
                    error=rec.error,
                    duration_ms=rec.duration_ms,
                )
            )
            conn.execute(
                update(deliveries_t).where(deliveries_t.c.id == row.id).values(**rec.next_state)
            )
