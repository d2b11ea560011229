"""Deciders: pure functions from a command and the facts a use case loaded to the events
it appends, or a refusal naming every failed rule. They read nothing."""

from __future__ import annotations

from dataclasses import dataclass

from market.domain.events.base import DomainEvent


@dataclass(frozen=True)
class Append:
    """An event to append to its stream (`new_stream`: the stream must not exist yet)."""

    stream: str
    event: DomainEvent
    new_stream: bool = False
