"""The notification context's rows as frozen records (services/notify): webhook
subscriptions, their deliveries and attempts, the e-mail outbox and the users a notice
goes to. The one place their columns become typed fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import RowMapping

Row = RowMapping  # a row as `.mappings()` answers it, before it is read into a record

# A subscription's `paused` column in words: its owner paused it, or the receiver
# answered 410 Gone (disabled until its owner resumes it).
WEBHOOK_STATUS = {None: "active", "owner": "paused", "gone": "disabled"}


@dataclass(frozen=True)
class WebhookSubscription:
    id: str
    user_id: str
    party_id: str | None  # None: the Authority's (every event)
    url: str
    event_types: tuple[str, ...]
    secret: str
    created_at: str
    created_seq: int
    active: bool
    paused: str | None
    deleted_at: str | None

    @property
    def status(self) -> str:
        """active, paused (by its owner) or disabled (the receiver answered 410 Gone)."""
        return WEBHOOK_STATUS[self.paused]


def webhook_of(row: Row) -> WebhookSubscription:
    return WebhookSubscription(
        id=str(row["id"]),
        user_id=str(row["user_id"]),
        party_id=row["party_id"],
        url=str(row["url"]),
        event_types=tuple(row["event_types"] or ()),
        secret=str(row["secret"]),
        created_at=str(row["created_at"]),
        created_seq=int(row["created_seq"]),
        active=bool(row["active"]),
        paused=row["paused"],
        deleted_at=row["deleted_at"],
    )


@dataclass(frozen=True)
class WebhookMessage:
    """One message (one webhook-id) of a subscription for one event."""

    id: str
    webhook_id: str
    seq: int
    type: str
    status: str
    attempts: int
    next_attempt_at: str
    created_at: str
    delivered_at: str | None


def delivery_of(row: Row) -> WebhookMessage:
    return WebhookMessage(
        id=str(row["id"]),
        webhook_id=str(row["webhook_id"]),
        seq=int(row["seq"]),
        type=str(row["type"]),
        status=str(row["status"]),
        attempts=int(row["attempts"]),
        next_attempt_at=str(row["next_attempt_at"]),
        created_at=str(row["created_at"]),
        delivered_at=row["delivered_at"],
    )


@dataclass(frozen=True)
class DeliveryAttempt:
    id: str
    delivery_id: str
    webhook_id: str
    seq: int
    attempted_at: str
    status_code: int | None
    error: str | None
    duration_ms: int


def attempt_of(row: Row) -> DeliveryAttempt:
    return DeliveryAttempt(
        id=str(row["id"]),
        delivery_id=str(row["delivery_id"]),
        webhook_id=str(row["webhook_id"]),
        seq=int(row["seq"]),
        attempted_at=str(row["attempted_at"]),
        status_code=row["status_code"],
        error=row["error"],
        duration_ms=int(row["duration_ms"]),
    )


@dataclass(frozen=True)
class DeliveryLog:
    """A delivery with its attempts, oldest first (the delivery log's line)."""

    id: str
    webhook_id: str
    seq: int
    type: str
    status: str
    attempts: int
    next_attempt_at: str
    delivered_at: str | None
    attempt_log: tuple[DeliveryAttempt, ...]


@dataclass(frozen=True)
class ReplayCount:
    webhook_id: str
    from_seq: int
    requeued: int
    new: int


@dataclass(frozen=True)
class OutboxMail:
    """A message in the e-mail outbox."""

    id: str
    user_id: str
    seq: int
    type: str
    to_addr: str
    subject: str
    text_body: str
    html_body: str
    status: str
    attempts: int
    next_attempt_at: str


def outbox_mail_of(row: Row) -> OutboxMail:
    return OutboxMail(
        id=str(row["id"]),
        user_id=str(row["user_id"]),
        seq=int(row["seq"]),
        type=str(row["type"]),
        to_addr=str(row["to_addr"]),
        subject=str(row["subject"]),
        text_body=str(row["text_body"]),
        html_body=str(row["html_body"]),
        status=str(row["status"]),
        attempts=int(row["attempts"]),
        next_attempt_at=str(row["next_attempt_at"]),
    )


@dataclass(frozen=True)
class Recipient:
    """An active user a notice goes to."""

    id: str
    email: str
    party_id: str | None


def recipient_of(row: Row) -> Recipient:
    return Recipient(id=str(row["id"]), email=str(row["email"]), party_id=row["party_id"])


class NotificationView(TypedDict):
    """A notice in a user's inbox, as the API and the page show it."""

    id: str
    type: str
    subject: str
    body: str
    link: str | None
    created_at: str
    read_at: str | None
    seq: int


def notification_of(row: Row) -> NotificationView:
    return NotificationView(
        id=str(row["id"]),
        type=str(row["type"]),
        subject=str(row["subject"]),
        body=str(row["body"]),
        link=row["link"],
        created_at=str(row["created_at"]),
        read_at=row["read_at"],
        seq=int(row["seq"]),
    )
