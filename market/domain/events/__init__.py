"""Typed ledger events: one frozen class per event type, in one module per area, each
with its stored TYPE and its VERSION (see base.py for versions and upcasting)."""

from market.domain.events.base import (
    VERSION_KEY,
    DomainEvent,
    by_type,
    event_class,
    event_types,
    upcast,
)
from market.domain.events.codec import EventError, UnknownEventTypeError

# Importing the area modules registers their classes.
from market.domain.events import certificates, deals, funding, halts  # noqa: F401  isort: skip
from market.domain.events import parties, returns, tech, trading, uth  # noqa: F401  isort: skip
from market.domain.events import records  # noqa: F401  isort: skip
from market.domain.events import accounts, registration  # noqa: F401  isort: skip
from market.domain.events import casefiles  # noqa: F401  isort: skip

__all__ = [
    "VERSION_KEY",
    "DomainEvent",
    "EventError",
    "UnknownEventTypeError",
    "by_type",
    "event_class",
    "event_types",
    "upcast",
]
