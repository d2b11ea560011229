"""Webhook subscriptions (Standard Webhooks): registration with its SSRF guard, the
delivery log, and replay from a seq.

The secret (`whsec_` + base64 of 24 random bytes) is shown once, at registration, and
kept in plain text in `webhooks.secret`: the worker must sign with it (HMAC needs the
key itself), so a hash would not do; the database is the service's own trust boundary.
"""

from __future__ import annotations

import base64
import secrets

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.engine import Connection

from market.adapters.eventstore import head, page_events
from market.adapters.notifications.target_guard import check_target
from market.adapters.projections import known_types
from market.adapters.repositories.notify_models import (
    DeliveryAttempt,
    DeliveryLog,
    ReplayCount,
    WebhookSubscription,
    attempt_of,
    delivery_of,
    webhook_of,
)
from market.adapters.tables import Webhook, WebhookAttempt, WebhookDelivery
from market.domain.errors import InvalidRequestError
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.numbering import new_id
from market.services.kernel.paging import split_page
from market.services.notify import notices
from market.services.notify.delivery import Settings, now_iso
from market.services.notify.event_names import canonical
from market.services.notify.fanout import hook_wants, write_transaction

hooks_t = Webhook.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
attempts_t = WebhookAttempt.__table__  # type: ignore[attr-defined]


class UnknownEventTypeError(InvalidRequestError):
    code = "unknown_event_type"


def event_types() -> frozenset[str]:
    return known_types() | frozenset(notices.BY_TYPE)


def register(
    engine: Engine, actor: Actor, url: str, types: list[str], settings: Settings
) -> WebhookSubscription:
    actor.require(AUTHORITY, PARTICIPANT)
    if actor.role == PARTICIPANT and actor.party_id is None:
        raise InvalidRequestError("Your user is not linked to a party.", {})
    known = {canonical(t) for t in event_types()} | {"*"}
    unknown = sorted(t for t in set(types) if canonical(t) not in known)
    if not types or unknown:
        raise UnknownEventTypeError(
            'event_types must name known event types, or be ["*"] for all.',
            {"unknown": unknown},
        )
    check_target(url, settings)
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()
    with engine.connect() as conn:
        at = head(conn)[0]
    hook = WebhookSubscription(
        id=new_id("whk"),
        user_id=actor.user_id,
        party_id=None if actor.role == AUTHORITY else actor.party_id,
        url=url,
        event_types=tuple(sorted({str(canonical(t)) for t in types})),
        secret=secret,
        created_at=now_iso(),
        created_seq=at,
        active=True,
        paused=None,
        deleted_at=None,
    )
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
    return hook


def load(engine: Engine, actor: Actor, webhook_id: str) -> WebhookSubscription:
    with engine.connect() as conn:
        row = conn.execute(select(hooks_t).where(hooks_t.c.id == webhook_id)).mappings().first()
    hook = None if row is None else webhook_of(row)
    if hook is None or hook.deleted_at is not None or not _owns(actor, hook):
        raise NotFoundError(f"Webhook {webhook_id} does not exist.", {})
    return hook


def _owns(actor: Actor, hook: WebhookSubscription) -> bool:
    """The Authority reads every subscription; a participant its party's."""
    if actor.role == AUTHORITY:
        return True
    return actor.party_id is not None and hook.party_id == actor.party_id


def status_of(hook: WebhookSubscription) -> str:
    """active, paused (by its owner) or disabled (the receiver answered 410 Gone)."""
    return hook.status


def list_for(engine: Engine, actor: Actor) -> list[WebhookSubscription]:
    """A party's own subscriptions (the Authority's: those it made, party None)."""
    actor.require(AUTHORITY, PARTICIPANT)
    owner = (
        hooks_t.c.party_id.is_(None)
        if actor.role == AUTHORITY
        else hooks_t.c.party_id == actor.party_id
    )
    stmt = select(hooks_t).where(owner, hooks_t.c.deleted_at.is_(None)).order_by(hooks_t.c.id)
    with engine.connect() as conn:
        return [webhook_of(r) for r in conn.execute(stmt).mappings()]


def pause(engine: Engine, actor: Actor, webhook_id: str) -> WebhookSubscription:
    """Hold its messages: they wait, queued, until it is resumed."""
    load(engine, actor, webhook_id)
    with write_transaction(engine) as conn:
        conn.execute(update(hooks_t).where(hooks_t.c.id == webhook_id).values(paused="owner"))
    return load(engine, actor, webhook_id)


def resume(engine: Engine, actor: Actor, webhook_id: str) -> WebhookSubscription:
    """Send again (after a pause, or a 410 that disabled it): what waited goes out now."""
    load(engine, actor, webhook_id)
    now = now_iso()
    with write_transaction(engine) as conn:
        conn.execute(update(hooks_t).where(hooks_t.c.id == webhook_id).values(paused=None))
        conn.execute(
            update(deliveries_t)
            .where(deliveries_t.c.webhook_id == webhook_id, deliveries_t.c.status == "pending")
            .values(next_attempt_at=now)
        )
    return load(engine, actor, webhook_id)


def delete(engine: Engine, actor: Actor, webhook_id: str) -> None:
    """No longer listed nor sent to; its delivery log is kept (ended: nothing pending)."""
    load(engine, actor, webhook_id)
    with write_transaction(engine) as conn:
        conn.execute(
            update(hooks_t)
            .where(hooks_t.c.id == webhook_id)
            .values(active=False, deleted_at=now_iso())
        )
        conn.execute(
            update(deliveries_t)
            .where(deliveries_t.c.webhook_id == webhook_id, deliveries_t.c.status == "pending")
            .values(status="failed")
        )


def deliveries(
    engine: Engine, actor: Actor, webhook_id: str, after: int | None, limit: int
) -> tuple[list[DeliveryLog], int | None]:
    """Every message with its attempts, by event seq."""
    load(engine, actor, webhook_id)
    stmt = select(deliveries_t).where(deliveries_t.c.webhook_id == webhook_id)
    if after is not None:
        stmt = stmt.where(deliveries_t.c.seq > after)
    with engine.connect() as conn:
        found = conn.execute(stmt.order_by(deliveries_t.c.seq).limit(limit + 1)).mappings()
        kept, nxt = split_page([delivery_of(r) for r in found], limit, lambda d: d.seq)
        tried = _attempts(conn, [d.id for d in kept])
    out = []
    for d in kept:
        log = tuple(a for a in tried if a.delivery_id == d.id)
        out.append(
            DeliveryLog(
                id=d.id,
                webhook_id=d.webhook_id,
                seq=d.seq,
                type=d.type,
                status=d.status,
                attempts=d.attempts,
                next_attempt_at=d.next_attempt_at,
                delivered_at=d.delivered_at,
                attempt_log=log,
            )
        )
    return out, nxt


def _attempts(conn: Connection, delivery_ids: list[str]) -> list[DeliveryAttempt]:
    if not delivery_ids:
        return []
    stmt = (
        select(attempts_t)
        .where(attempts_t.c.delivery_id.in_(delivery_ids))
        .order_by("attempted_at")
    )
    return [attempt_of(a) for a in conn.execute(stmt).mappings()]


def replay(engine: Engine, actor: Actor, webhook_id: str, from_seq: int) -> ReplayCount:
    """Send again every matching event from `from_seq` on: messages already made keep their
    webhook-id (receivers deduplicate on it); events never sent get new ones."""
    hook = load(engine, actor, webhook_id)
    requeued = created = 0
    now = now_iso()
    with write_transaction(engine) as conn:
        have = {
            int(r.seq): r.id
            for r in conn.execute(
                select(deliveries_t.c.seq, deliveries_t.c.id).where(
                    deliveries_t.c.webhook_id == webhook_id, deliveries_t.c.seq >= from_seq
                )
            )
        }
        after = from_seq - 1
        while batch := page_events(conn, after, 1000):
            for event in batch:
                parties = notices.concerned_parties(event, notices.facts(conn, event))
                if not hook_wants(hook, event, parties, from_seq - 1):
                    continue
                if event.seq in have:
                    conn.execute(
                        update(deliveries_t)
                        .where(deliveries_t.c.id == have[event.seq])
                        .values(status="pending", next_attempt_at=now)
                    )
                    requeued += 1
                else:
                    conn.execute(
                        insert(deliveries_t).values(
                            id=new_id("msg"),
                            webhook_id=webhook_id,
                            seq=event.seq,
                            type=event.type,
                            status="pending",
                            attempts=0,
                            next_attempt_at=now,
                            created_at=now,
                        )
                    )
                    created += 1
            after = batch[-1].seq
    return ReplayCount(webhook_id, from_seq, requeued, created)
