"""The outbox is the events table: this consumer tails it and derives what each committed
event owes (inbox rows, e-mails, webhook deliveries, public filing references).

The ledger commits in `seq` order with no gaps (docs/ARCHITECTURE.md), so a cursor (the
last seq handled, one row in `consumer_cursors`) says exactly what is done. The rows an
event owes and the cursor's advance are written in one transaction: a crash before the
commit leaves both undone (the next pass does them), after it both done. Nothing is owed
that was not committed (an event only exists once committed), nothing committed is
forgotten, and nothing is derived twice (the cursor row is locked for the pass, and the
derived rows' unique keys refuse a second copy). The write path itself does nothing.
"""

from __future__ import annotations

import hashlib

import structlog

from market.adapters.eventstore import Event, page_events, utcnow_iso
from market.adapters.repositories import notify_outbox as outbox
from market.adapters.repositories.notify_models import WebhookSubscription
from market.domain.events import DomainEvent, by_type
from market.domain.events.tech import TechApplicationReceived
from market.domain.events.trading import TransferProposed
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Connection, Engine
from market.services.notify import event_names, notices

log = structlog.get_logger("market.worker")

CONSUMER = "fanout"
BATCH = 500

# Filings that get a public reference (kind, the event that files it, its id's key).
FILINGS: dict[type[DomainEvent], tuple[str, str]] = {
    TransferProposed: ("transfer", "transfer_id"),
    TechApplicationReceived: ("tech_application", "application_id"),
}
_FILINGS_BY_TYPE = by_type(FILINGS)


def reference_for(event: Event) -> str:
    """Unguessable and stable: derived from the filing event's hash, which only the
    Authority and auditors can read (they may see every filing anyway)."""
    return hashlib.sha256(f"public-status:{event.hash}".encode()).hexdigest()[:32]


# A write transaction beside the ledger's writers (the notify and identity contexts').
write_transaction = outbox.write_transaction


def cursor(conn: Connection, name: str, *, lock: bool = False) -> int:
    """The last seq the consumer `name` handled (`lock`: its row held for the pass)."""
    return outbox.cursor(conn, name, lock=lock)


def ensure_cursor(engine: Engine, name: str) -> None:
    outbox.ensure_cursor(engine, name)


def lag(engine: Engine) -> int:
    """Events committed but not yet fanned out."""
    return outbox.cursor_lag(engine, CONSUMER)


def run_once(engine: Engine, batch: int = BATCH) -> int:
    """Fan out up to `batch` events; how many were handled."""
    ensure_cursor(engine, CONSUMER)
    with write_transaction(engine) as conn:
        done = cursor(conn, CONSUMER, lock=True)
        events = page_events(conn, done, batch)
        if not events:
            return 0
        hooks = outbox.active_webhooks(conn)
        for event in events:
            fan_out(conn, event, hooks)
        _log_fanned_out(conn, events)
        outbox.advance_cursor(conn, CONSUMER, events[-1].seq)
        return len(events)


def _log_fanned_out(conn: Connection, events: list[Event]) -> None:
    """A line per pass, and one per event that a request committed, naming that request
    (events from the command line or seeding have none: a pass of thousands is one line)."""
    first, last = events[0].seq, events[-1].seq
    traces = outbox.request_ids(conn, first, last)
    for event in events:
        if event.seq in traces:
            log.info(
                "event fanned out", seq=event.seq, type=event.type, request_id=traces[event.seq]
            )
    log.info("events fanned out", count=len(events), first_seq=first, last_seq=last)
    # Said once: the table holds only the events still to fan out.
    outbox.forget_request_ids(conn, last)


def catch_up(engine: Engine) -> None:
    """Everything committed so far fanned out (the inbox reads call it, so a user's inbox
    never lags the ledger by more than its own read)."""
    while lag(engine) > 0 and run_once(engine):
        pass


def fan_out(conn: Connection, event: Event, hooks: list[WebhookSubscription]) -> None:
    now = utcnow_iso()
    notice = notices.notice_of(event.type)
    f = notices.facts(conn, event, in_words=notice is not None)
    if notice is not None:
        who = {w for w in notice.who(f) if w}
        users = outbox.recipients(conn, who - {notices.AUTHORITY}, notices.AUTHORITY in who)
        for user in users:
            subject, body, link = notices.render(notice, f, user.party_id)
            outbox.add_notification(
                conn,
                id=new_id("ntf"),
                user_id=user.id,
                seq=event.seq,
                type=event.type,
                subject=subject,
                body=body,
                link=link,
                created_at=now,
            )
            if notice.email:
                from market.services.notify.mail_render import render_email

                text, html = render_email(subject, body, link)
                outbox.queue_mail(
                    conn,
                    id=new_id("eml"),
                    user_id=user.id,
                    seq=event.seq,
                    type=event.type,
                    to_addr=user.email,
                    subject=subject,
                    text_body=text,
                    html_body=html,
                    status="pending",
                    attempts=0,
                    next_attempt_at=now,
                    created_at=now,
                )
    if hooks:
        parties = notices.concerned_parties(event, f)
        for hook in hooks:
            if hook_wants(hook, event, parties, hook.created_seq):
                outbox.queue_delivery(
                    conn,
                    id=new_id("msg"),
                    webhook_id=hook.id,
                    seq=event.seq,
                    type=event.type,
                    status="pending",
                    attempts=0,
                    next_attempt_at=now,
                    created_at=now,
                )
    filing = _FILINGS_BY_TYPE.get(event.type)
    entity_id = event.facts().get(filing[1]) if filing is not None else None
    if filing is not None and entity_id:
        outbox.add_filing_reference(conn, reference_for(event), filing[0], entity_id)


def hook_wants(hook: WebhookSubscription, event: Event, parties: set[str], after: int) -> bool:
    """Whether `hook` is sent `event`: one after seq `after` (the seq it was made at,
    unless replayed from an earlier one), of a type it named, about its party."""
    if event.seq <= after:
        return False
    if not event_names.wanted(hook.event_types, event.type):
        return False
    return hook.party_id is None or hook.party_id in parties
