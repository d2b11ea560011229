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
from collections.abc import Iterator
from contextlib import contextmanager

import structlog
from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from market.adapters.db import WRITE_OPTION, is_sqlite, write_lock
from market.adapters.eventstore import Event, head, page_events, utcnow_iso
from market.adapters.repositories.notify_models import (
    Recipient,
    WebhookSubscription,
    recipient_of,
    webhook_of,
)
from market.adapters.tables import (
    ConsumerCursor,
    EmailMessage,
    FilingReference,
    Notification,
    RequestTrace,
    User,
    Webhook,
    WebhookDelivery,
)
from market.domain.events import DomainEvent, by_type
from market.domain.events.tech import TechApplicationReceived
from market.domain.events.trading import TransferProposed
from market.services.kernel.numbering import new_id
from market.services.notify import event_names, notices

cursors_t = ConsumerCursor.__table__  # type: ignore[attr-defined]
notes_t = Notification.__table__  # type: ignore[attr-defined]
mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
users_t = User.__table__  # type: ignore[attr-defined]
hooks_t = Webhook.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
refs_t = FilingReference.__table__  # type: ignore[attr-defined]
traces_t = RequestTrace.__table__  # type: ignore[attr-defined]
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


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A write transaction beside the ledger's writers (SQLite: BEGIN IMMEDIATE behind the
    same lock file; PostgreSQL: row locks only, no ledger head)."""
    with write_lock(engine), engine.connect() as conn:
        conn = conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            yield conn


def cursor(conn: Connection, name: str, *, lock: bool = False) -> int:
    stmt = select(cursors_t.c.seq).where(cursors_t.c.name == name)
    if lock and not is_sqlite(conn):
        stmt = stmt.with_for_update()
    found = conn.execute(stmt).scalar()
    return int(found or 0)


def ensure_cursor(engine: Engine, name: str) -> None:
    with engine.connect() as conn:
        if conn.execute(select(cursors_t.c.name).where(cursors_t.c.name == name)).first():
            return
    try:
        with write_transaction(engine) as conn:
            conn.execute(insert(cursors_t).values(name=name, seq=0))
    except IntegrityError:
        pass  # another process made it first


def lag(engine: Engine) -> int:
    """Events committed but not yet fanned out."""
    with engine.connect() as conn:
        return head(conn)[0] - cursor(conn, CONSUMER)


def run_once(engine: Engine, batch: int = BATCH) -> int:
    """Fan out up to `batch` events; how many were handled."""
    ensure_cursor(engine, CONSUMER)
    with write_transaction(engine) as conn:
        done = cursor(conn, CONSUMER, lock=True)
        events = page_events(conn, done, batch)
        if not events:
            return 0
        active = conn.execute(select(hooks_t).where(hooks_t.c.active)).mappings()
        hooks = [webhook_of(r) for r in active]
        for event in events:
            fan_out(conn, event, hooks)
        _log_fanned_out(conn, events)
        conn.execute(
            update(cursors_t).where(cursors_t.c.name == CONSUMER).values(seq=events[-1].seq)
        )
        return len(events)


def _log_fanned_out(conn: Connection, events: list[Event]) -> None:
    """A line per pass, and one per event that a request committed, naming that request
    (events from the command line or seeding have none: a pass of thousands is one line)."""
    first, last = events[0].seq, events[-1].seq
    rows = conn.execute(
        select(traces_t.c.seq, traces_t.c.request_id).where(
            traces_t.c.seq >= first, traces_t.c.seq <= last
        )
    )
    traces: dict[int, str] = {row.seq: row.request_id for row in rows}
    for event in events:
        if event.seq in traces:
            log.info(
                "event fanned out", seq=event.seq, type=event.type, request_id=traces[event.seq]
            )
    log.info("events fanned out", count=len(events), first_seq=first, last_seq=last)
    # Said once: the table holds only the events still to fan out.
    conn.execute(delete(traces_t).where(traces_t.c.seq <= last))


def catch_up(engine: Engine) -> None:
    """Everything committed so far fanned out (the inbox reads call it, so a user's inbox
    never lags the ledger by more than its own read)."""
    while lag(engine) > 0 and run_once(engine):
        pass


def _recipients(conn: Connection, concerned: set[str], authority: bool) -> list[Recipient]:
    if not concerned and not authority:
        return []
    conds = [users_t.c.party_id.in_(concerned)] if concerned else []
    if authority:
        conds.append(users_t.c.role == "authority")
    stmt = select(users_t).where(or_(*conds), users_t.c.active).order_by(users_t.c.id)
    return [recipient_of(r) for r in conn.execute(stmt).mappings()]


def fan_out(conn: Connection, event: Event, hooks: list[WebhookSubscription]) -> None:
    now = utcnow_iso()
    notice = notices.notice_of(event.type)
    f = notices.facts(conn, event, in_words=notice is not None)
    if notice is not None:
        who = {w for w in notice.who(f) if w}
        users = _recipients(conn, who - {notices.AUTHORITY}, notices.AUTHORITY in who)
        for user in users:
            subject, body, link = notices.render(notice, f, user.party_id)
            conn.execute(
                insert(notes_t).values(
                    id=new_id("ntf"),
                    user_id=user.id,
                    seq=event.seq,
                    type=event.type,
                    subject=subject,
                    body=body,
                    link=link,
                    created_at=now,
                )
            )
            if notice.email:
                from market.services.notify.mail_render import render_email

                text, html = render_email(subject, body, link)
                conn.execute(
                    insert(mail_t).values(
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
                )
    if hooks:
        parties = notices.concerned_parties(event, f)
        for hook in hooks:
            if hook_wants(hook, event, parties, hook.created_seq):
                conn.execute(
                    insert(deliveries_t).values(
                        id=new_id("msg"),
                        webhook_id=hook.id,
                        seq=event.seq,
                        type=event.type,
                        status="pending",
                        attempts=0,
                        next_attempt_at=now,
                        created_at=now,
                    )
                )
    filing = _FILINGS_BY_TYPE.get(event.type)
    entity_id = event.facts().get(filing[1]) if filing is not None else None
    if filing is not None and entity_id:
        conn.execute(
            insert(refs_t).values(
                reference=reference_for(event), kind=filing[0], entity_id=entity_id
            )
        )


def hook_wants(hook: WebhookSubscription, event: Event, parties: set[str], after: int) -> bool:
    """Whether `hook` is sent `event`: one after seq `after` (the seq it was made at,
    unless replayed from an earlier one), of a type it named, about its party."""
    if event.seq <= after:
        return False
    if not event_names.wanted(hook.event_types, event.type):
        return False
    return hook.party_id is None or hook.party_id in parties
