"""Reminders (market/services/jobs/reminders.py): a fact the ledger keeps, read by the fan-out,
on the stream `reminder-<what>-d<days>`."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate, omitted


@event
class ReminderIssued(DomainEvent):
    """`certificate_id` only on a carryforward expiry's reminder."""

    TYPE = "REMINDER_ISSUED"
    kind: str
    party_ids: Sequence[str]
    due_on: IsoDate
    days_before: int
    as_of: IsoDate
    subject: str
    body: str
    link: str
    certificate_id: str | None = omitted(None)
