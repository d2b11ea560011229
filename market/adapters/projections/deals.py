"""Events of the deals area that change no projection: a reminder is a fact the ledger
keeps (who was reminded of what, once), read by the fan-out, not by any table; a deal's
messages are read from their stream by the deal room."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.deals import DealMessagePosted, ReminderIssued


@handles(ReminderIssued)
def reminder_issued(store: Store, seq: int, e: ReminderIssued) -> None:
    return None


@handles(DealMessagePosted)
def deal_message_posted(store: Store, seq: int, e: DealMessagePosted) -> None:
    return None
