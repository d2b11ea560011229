"""Event type -> projection handler. A handler is given the event's seq and the typed
event: a stored payload reaches it through `upcast`, so it reads every version of its type
as the current one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from market.adapters.eventstore import Event
from market.adapters.projections.store import Store
from market.domain.events import DomainEvent, upcast

E = TypeVar("E", bound=DomainEvent)
Handler = Callable[[Store, int, Any], None]
Typed = Callable[[Store, int, E], None]
_HANDLERS: dict[str, Handler] = {}


def handles(cls: type[E]) -> Callable[[Typed[E]], Typed[E]]:
    def register(fn: Typed[E]) -> Typed[E]:
        if cls.TYPE in _HANDLERS:
            raise RuntimeError(f"two projection handlers for {cls.TYPE}")
        _HANDLERS[cls.TYPE] = fn
        return fn

    return register


def apply_typed(store: Store, seq: int, event: DomainEvent) -> None:
    handler = _HANDLERS.get(event.TYPE)
    if handler is None:
        raise LookupError(f"no projection handler for event type {event.TYPE!r}")
    handler(store, seq, event)


def apply(store: Store, event: Event) -> DomainEvent:
    """Fold one stored event, its payload read through `upcast`; returns the typed event."""
    typed = upcast(event.type, event.payload)
    apply_typed(store, event.seq, typed)
    return typed


def known_types() -> frozenset[str]:
    return frozenset(_HANDLERS)
