"""Event type -> projection handler."""

from __future__ import annotations

from collections.abc import Callable

from market.adapters.eventstore import Event
from market.adapters.projections.store import Store

Handler = Callable[[Store, Event], None]
_HANDLERS: dict[str, Handler] = {}


def handles(*types: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for t in types:
            if t in _HANDLERS:
                raise RuntimeError(f"two projection handlers for {t}")
            _HANDLERS[t] = fn
        return fn

    return register


def apply(store: Store, event: Event) -> None:
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise LookupError(f"no projection handler for event type {event.type!r}")
    handler(store, event)


def known_types() -> frozenset[str]:
    return frozenset(_HANDLERS)
