"""Webhook subscriptions (Standard Webhooks): registration with its SSRF guard, the
delivery log, and replay from a seq.

The secret (`whsec_` + base64 of 24 random bytes) is shown once, at registration, and
kept in plain text in `webhooks.secret`: the worker must sign with it (HMAC needs the
key itself), so a hash would not do; the database is the service's own trust boundary.
"""

from __future__ import annotations

import base64
import secrets

from market.adapters.eventstore import page_events
from market.adapters.notifications.target_guard import check_target
from market.adapters.projections import known_types
from market.adapters.repositories import notify_outbox as outbox
from market.adapters.repositories import notify_webhooks as repo
from market.adapters.repositories.notify_models import (
    DeliveryLog,
    ReplayCount,
    WebhookSubscription,
)
from market.domain.errors import InvalidRequestError
from market.services.kernel.actor import AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.numbering import new_id
from market.services.kernel.paging import split_page
from market.services.kernel.reads import Engine
from market.services.notify import notices
from market.services.notify.delivery import Settings, now_iso
from market.services.notify.event_names import canonical
from market.services.notify.fanout import hook_wants, write_transaction


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
    at = repo.ledger_head(engine)
    hook = WebhookSubscription(
        id=new_id("whk"),
        user_id=actor.user_id,
        party_id=None if actor.role == AUTHORITY else actor.party_id,
        url=url,
        # As given (either form, duplicates dropped): the answer echoes what was asked;
        # matching reads both forms (event_names.wanted).
        event_types=tuple(dict.fromkeys(types)),
        secret=secret,
        created_at=now_iso(),
        created_seq=at,
        active=True,
        paused=None,
        deleted_at=None,
    )
    repo.add_webhook(engine, hook)
    return hook


def load(engine: Engine, actor: Actor, webhook_id: str) -> WebhookSubscription:
    hook = repo.find_webhook(engine, webhook_id)
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
    return repo.webhooks_of(engine, None if actor.role == AUTHORITY else actor.party_id)


def pause(engine: Engine, actor: Actor, webhook_id: str) -> WebhookSubscription:
    """Hold its messages: they wait, queued, until it is resumed."""
    load(engine, actor, webhook_id)
    repo.pause_webhook(engine, webhook_id)
    return load(engine, actor, webhook_id)


def resume(engine: Engine, actor: Actor, webhook_id: str) -> WebhookSubscription:
    """Send again (after a pause, or a 410 that disabled it): what waited goes out now."""
    load(engine, actor, webhook_id)
    repo.resume_webhook(engine, webhook_id, now_iso())
    return load(engine, actor, webhook_id)


def delete(engine: Engine, actor: Actor, webhook_id: str) -> None:
    """No longer listed nor sent to; its delivery log is kept (ended: nothing pending)."""
    load(engine, actor, webhook_id)
    repo.delete_webhook(engine, webhook_id, now_iso)


def deliveries(
    engine: Engine, actor: Actor, webhook_id: str, after: int | None, limit: int
) -> tuple[list[DeliveryLog], int | None]:
    """Every message with its attempts, by event seq."""
    load(engine, actor, webhook_id)
    found, tried = repo.messages_page(engine, webhook_id, after, limit)
    kept, nxt = split_page(found, limit, lambda d: d.seq)
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


def replay(engine: Engine, actor: Actor, webhook_id: str, from_seq: int) -> ReplayCount:
    """Send again every matching event from `from_seq` on: messages already made keep their
    webhook-id (receivers deduplicate on it); events never sent get new ones."""
    hook = load(engine, actor, webhook_id)
    requeued = created = 0
    now = now_iso()
    with write_transaction(engine) as conn:
        have = repo.message_ids_from(conn, webhook_id, from_seq)
        after = from_seq - 1
        while batch := page_events(conn, after, 1000):
            for event in batch:
                parties = notices.concerned_parties(event, notices.facts(conn, event))
                if not hook_wants(hook, event, parties, from_seq - 1):
                    continue
                if event.seq in have:
                    repo.requeue_message(conn, have[event.seq], now)
                    requeued += 1
                else:
                    outbox.queue_delivery(
                        conn,
                        id=new_id("msg"),
                        webhook_id=webhook_id,
                        seq=event.seq,
                        type=event.type,
                        status="pending",
                        attempts=0,
                        next_attempt_at=now,
                        created_at=now,
                    )
                    created += 1
            after = batch[-1].seq
    return ReplayCount(webhook_id, from_seq, requeued, created)
