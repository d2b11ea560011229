"""Events of the deals area that change no projection: a reminder is a fact the ledger
keeps (who was reminded of what, once), read by the fan-out, not by any table."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.deals import ReminderIssued


@handles(ReminderIssued)
def reminder_issued(store: Store, seq: int, e: ReminderIssued) -> None:
    return None
