"""Deals: notifications, e-mail, webhooks, the worker's clock (issue 18).

Written directly (not projections): what the ledger owes people and machines. The
events table is the outbox; each consumer keeps a cursor (`consumer_cursors`) advanced
in the same transaction as the rows it derives, so nothing committed is forgotten and
nothing is derived twice (see market/services/notify/fanout.py).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
    UniqueConstraint,
)
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class ConsumerCursor(SQLModel, table=True):
    __tablename__ = "consumer_cursors"

    name: str = Field(primary_key=True, max_length=40)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class RequestTrace(SQLModel, table=True):
    """Which request committed an event (its X-Request-Id), so the worker's log lines for
    what the event owes carry the same id. Beside the events, not in them: the id is no
    fact of the ledger and must not enter the hashed payload."""

    __tablename__ = "request_traces"
    # Its rows are all key: on SQLite one B-tree, not a table and its key's index (0026).
    __table_args__ = ({"sqlite_with_rowid": False},)

    # No foreign key to events and the request in the key: a trace is a log's aid, and
    # must never stand in the way of what is done to the ledger itself (a restore, a cut
    # tail whose stale traces the next events' seqs meet again).
    seq: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    request_id: str = Field(max_length=64, primary_key=True)


class Notification(SQLModel, table=True):
    __tablename__ = "notifications"
    __table_args__ = (UniqueConstraint("user_id", "seq", "type", name="notification_user_event"),)

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    type: str = Field(max_length=64)
    subject: str = Field(max_length=300)
    body: str = Field(max_length=4000)
    link: str | None = Field(default=None, max_length=300)
    created_at: str = Field(max_length=32)
    read_at: str | None = Field(default=None, max_length=32)


class EmailMessage(SQLModel, table=True):
    __tablename__ = "email_outbox"
    __table_args__ = (
        UniqueConstraint("user_id", "seq", "type", name="email_user_event"),
        CheckConstraint("status in ('pending','sent')", name="status"),
    )

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    type: str = Field(max_length=64)
    to_addr: str = Field(max_length=254)
    subject: str = Field(max_length=300)
    text_body: str = Field(max_length=8000)
    html_body: str = Field(max_length=16000)
    status: str = Field(max_length=10, index=True)
    attempts: int = 0
    next_attempt_at: str = Field(max_length=32)
    last_error: str | None = Field(default=None, max_length=500)
    created_at: str = Field(max_length=32)
    sent_at: str | None = Field(default=None, max_length=32)


class Webhook(SQLModel, table=True):
    __tablename__ = "webhooks"
    __table_args__ = (CheckConstraint("paused in ('owner','gone')", name="paused"),)

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    party_id: str | None = Field(default=None, max_length=40)  # None: the Authority's (all)
    url: str = Field(max_length=2000)
    event_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    secret: str = Field(max_length=80)  # whsec_..., kept plain: it must sign (README)
    created_at: str = Field(max_length=32)
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    active: bool = True
    paused: str | None = Field(default=None, max_length=10)  # 'owner', or 'gone' (a 410)
    deleted_at: str | None = Field(default=None, max_length=32)


class WebhookDelivery(SQLModel, table=True):
    """One message (one webhook-id) per webhook and event; retried until a 2xx."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        UniqueConstraint("webhook_id", "seq", name="delivery_webhook_event"),
        CheckConstraint("status in ('pending','delivered','failed')", name="status"),
    )

    id: str = Field(primary_key=True, max_length=40)  # the webhook-id header
    webhook_id: str = Field(foreign_key="webhooks.id", max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    type: str = Field(max_length=64)
    status: str = Field(max_length=10, index=True)
    attempts: int = 0
    next_attempt_at: str = Field(max_length=32)
    created_at: str = Field(max_length=32)
    delivered_at: str | None = Field(default=None, max_length=32)


class WebhookAttempt(SQLModel, table=True):
    __tablename__ = "webhook_attempts"

    id: str = Field(primary_key=True, max_length=40)
    delivery_id: str = Field(foreign_key="webhook_deliveries.id", max_length=40, index=True)
    webhook_id: str = Field(max_length=40, index=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    attempted_at: str = Field(max_length=32)
    status_code: int | None = None
    error: str | None = Field(default=None, max_length=500)
    duration_ms: int


class FilingReference(SQLModel, table=True):
    """The unguessable public reference of a filing (a transfer, a TECH application)."""

    __tablename__ = "filing_references"
    __table_args__ = (UniqueConstraint("kind", "entity_id", name="filing_entity"),)

    reference: str = Field(primary_key=True, max_length=64)
    kind: str = Field(max_length=20)
    entity_id: str = Field(max_length=40)


class TickRun(SQLModel, table=True):
    """A tick step done for a business date: a second run that day does nothing."""

    __tablename__ = "tick_runs"

    step: str = Field(primary_key=True, max_length=40)
    as_of: str = Field(primary_key=True, max_length=10)
    done_at: str = Field(max_length=32)
    result: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class WorkerLease(SQLModel, table=True):
    """A named lease (`tick`): two ticks never overlap, on any number of machines."""

    __tablename__ = "worker_leases"

    name: str = Field(primary_key=True, max_length=40)
    holder: str = Field(max_length=80)
    expires_at: str = Field(max_length=32)
