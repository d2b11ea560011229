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


@event
class DealMessagePosted(DomainEvent):
    """One party of a transfer writes to the other in its deal room (issue 28), on the
    stream `deal-messages-<transfer id>`: kept in the ledger like every word of a deal."""

    TYPE = "DEAL_MESSAGE_POSTED"
    transfer_id: str
    from_party_id: str
    to_party_id: str
    body: str
