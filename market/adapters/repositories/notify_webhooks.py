"""The webhook subscriptions' reads and writes (services/notify/webhooks): registration,
pause, resume and deletion, the delivery log, and a replay's messages. Each function
taking an Engine is one connection or transaction of its own, as the use cases had them;
those taking a Connection run in the caller's transaction."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.engine import Connection

from market.adapters.eventstore import head
from market.adapters.repositories.notify_models import (
    DeliveryAttempt,
    WebhookMessage,
    WebhookSubscription,
    attempt_of,
    delivery_of,
    webhook_of,
)
from market.adapters.repositories.notify_outbox import write_transaction
from market.adapters.tables import Webhook, WebhookAttempt, WebhookDelivery

hooks_t = Webhook.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
attempts_t = WebhookAttempt.__table__  # type: ignore[attr-defined]
PENDING_OF = deliveries_t.c.status == "pending"


def ledger_head(engine: Engine) -> int:
    """The seq of the last committed event (a new subscription starts after it)."""
    with engine.connect() as conn:
        return int(head(conn)[0])


def add_webhook(engine: Engine, hook: WebhookSubscription) -> None:
    with write_transaction(engine) as conn:
        conn.execute(
            insert(hooks_t).values(
                id=hook.id,
                user_id=hook.user_id,
                party_id=hook.party_id,
                url=hook.url,
                event_types=list(hook.event_types),
                secret=hook.secret,
                created_at=hook.created_at,
                created_seq=hook.created_seq,
                active=hook.active,
                paused=hook.paused,
                deleted_at=hook.deleted_at,
            )
        )


def find_webhook(engine: Engine, webhook_id: str) -> WebhookSubscription | None:
    """The subscription, deleted or not."""
    with engine.connect() as conn:
        row = conn.execute(select(hooks_t).where(hooks_t.c.id == webhook_id)).mappings().first()
    return None if row is None else webhook_of(row)


def webhooks_of(engine: Engine, party_id: str | None) -> list[WebhookSubscription]:
    """The party's subscriptions not deleted, by id (party None: the Authority's)."""
    owner = hooks_t.c.party_id.is_(None) if party_id is None else hooks_t.c.party_id == party_id
    stmt = select(hooks_t).where(owner, hooks_t.c.deleted_at.is_(None)).order_by(hooks_t.c.id)
    with engine.connect() as conn:
        return [webhook_of(r) for r in conn.execute(stmt).mappings()]


def pause_webhook(engine: Engine, webhook_id: str) -> None:
    with write_transaction(engine) as conn:
        conn.execute(update(hooks_t).where(hooks_t.c.id == webhook_id).values(paused="owner"))


def resume_webhook(engine: Engine, webhook_id: str, at: str) -> None:
    """Not paused any more, and its pending messages due at `at`."""
    with write_transaction(engine) as conn:
        conn.execute(update(hooks_t).where(hooks_t.c.id == webhook_id).values(paused=None))
        conn.execute(
            update(deliveries_t)
            .where(deliveries_t.c.webhook_id == webhook_id, PENDING_OF)
            .values(next_attempt_at=at)
        )


def delete_webhook(engine: Engine, webhook_id: str, now: Callable[[], str]) -> None:
    """Inactive and deleted at `now()` (read in the transaction); its pending messages
    ended as failed."""
    with write_transaction(engine) as conn:
        conn.execute(
            update(hooks_t).where(hooks_t.c.id == webhook_id).values(active=False, deleted_at=now())
        )
        conn.execute(
            update(deliveries_t)
            .where(deliveries_t.c.webhook_id == webhook_id, PENDING_OF)
            .values(status="failed")
        )


def messages_page(
    engine: Engine, webhook_id: str, after: int | None, limit: int
) -> tuple[list[WebhookMessage], list[DeliveryAttempt]]:
    """Up to `limit` + 1 of the subscription's messages after seq `after`, by seq (the
    extra one says a next page exists), and the attempts of the first `limit` of them
    (oldest first), in one connection."""
    stmt = select(deliveries_t).where(deliveries_t.c.webhook_id == webhook_id)
    if after is not None:
        stmt = stmt.where(deliveries_t.c.seq > after)
    with engine.connect() as conn:
        found = conn.execute(stmt.order_by(deliveries_t.c.seq).limit(limit + 1)).mappings()
        messages = [delivery_of(r) for r in found]
        return messages, attempts_of(conn, [m.id for m in messages[:limit]])


def attempts_of(conn: Connection, delivery_ids: list[str]) -> list[DeliveryAttempt]:
    if not delivery_ids:
        return []
    stmt = (
        select(attempts_t)
        .where(attempts_t.c.delivery_id.in_(delivery_ids))
        .order_by("attempted_at")
    )
    return [attempt_of(a) for a in conn.execute(stmt).mappings()]


def message_ids_from(conn: Connection, webhook_id: str, from_seq: int) -> dict[int, str]:
    """The subscription's messages from seq `from_seq` on: their ids by seq."""
    rows = conn.execute(
        select(deliveries_t.c.seq, deliveries_t.c.id).where(
            deliveries_t.c.webhook_id == webhook_id, deliveries_t.c.seq >= from_seq
        )
    )
    return {int(r.seq): r.id for r in rows}


def requeue_message(conn: Connection, message_id: str, at: str) -> None:
    conn.execute(
        update(deliveries_t)
        .where(deliveries_t.c.id == message_id)
        .values(status="pending", next_attempt_at=at)
    )
