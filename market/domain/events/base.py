"""The base of every ledger event: a frozen dataclass with a class-level TYPE (the type
string stored with it) and VERSION, read from and written to the stored payload.

Anchored on eventsourcing's domain events (`class_version`, `upcast_vX_vY`): a class
whose payload shape changes raises its VERSION and gains a static method
`upcast_v<N>_v<N+1>(payload) -> payload` for every step; the version is recorded in the
payload (`event_version`) only above 1, so every payload written before versions existed
is version 1 and keeps its bytes and its hash. `upcast(type, payload)` is the one way the
read path turns a stored payload into an event of the current version."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self, TypeVar, cast, dataclass_transform

from market.domain.events.codec import EventError, FieldSpec, UnknownEventTypeError, field_specs

VERSION_KEY = "event_version"
E = TypeVar("E", bound="DomainEvent")
V = TypeVar("V")
_CLASSES: dict[str, type[DomainEvent]] = {}


@dataclasses.dataclass(frozen=True)
class _Layout:
    """A class's fields, and the payload keys it allows and requires (read on every
    event, so computed once)."""

    specs: tuple[FieldSpec, ...]
    allowed: frozenset[str]
    required: frozenset[str]


_LAYOUTS: dict[type, _Layout] = {}


def _layout(cls: type) -> _Layout:
    found = _LAYOUTS.get(cls)
    if found is None:
        specs = field_specs(cls)
        found = _LAYOUTS[cls] = _Layout(
            specs,
            frozenset(s.name for s in specs) | {VERSION_KEY},
            frozenset(s.name for s in specs if not s.omit),
        )
    return found


def _specs(cls: type) -> tuple[FieldSpec, ...]:
    return _layout(cls).specs


class DomainEvent:
    """A fact the ledger records. Its fields are the payload's keys."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1

    def __post_init__(self) -> None:
        for spec in _specs(type(self)):
            problem = spec.check(getattr(self, spec.name))
            if problem is not None:
                raise EventError(f"{self.TYPE} v{self.VERSION} field {spec.name}: {problem}")

    def to_payload(self) -> dict[str, Any]:
        """The payload to store: every field (an `omitted` one only when it is not its
        default), and the version when above 1."""
        payload: dict[str, Any] = {}
        for spec in _specs(type(self)):
            value = getattr(self, spec.name)
            if not (spec.omit and value == spec.default):
                payload[spec.name] = value
        if self.VERSION > 1:
            payload[VERSION_KEY] = self.VERSION
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Self:
        """The event from a payload of this class's current version (see `upcast` for
        older ones); a missing or unknown key is refused by name."""
        if payload.get(VERSION_KEY, 1) != cls.VERSION:
            raise EventError(
                f"{cls.TYPE} payload of v{payload.get(VERSION_KEY, 1)} is not the current "
                f"v{cls.VERSION}: read it through upcast"
            )
        layout = _layout(cls)
        keys = payload.keys()
        if not keys <= layout.allowed:
            unknown = ", ".join(sorted(keys - layout.allowed))
            raise EventError(f"{cls.TYPE} v{cls.VERSION} has no field {unknown}")
        if not layout.required <= keys:
            missing = ", ".join(s.name for s in layout.specs if s.name in layout.required - keys)
            raise EventError(f"{cls.TYPE} v{cls.VERSION} payload lacks {missing}")
        if VERSION_KEY in keys:
            payload = {k: v for k, v in payload.items() if k != VERSION_KEY}
        return cls(**payload)

    @classmethod
    def read(cls, payload: Mapping[str, Any]) -> Self:
        """A stored payload of this class's type, at any version, as this class."""
        return cast(Self, upcast(cls.TYPE, payload))  # TYPE is registered to cls alone


@dataclass_transform(frozen_default=True, kw_only_default=True)
def event(cls: type[E]) -> type[E]:
    """Make `cls` a frozen, keyword-only dataclass and register it under its TYPE."""
    if cls.TYPE in _CLASSES:
        raise RuntimeError(f"two event classes for {cls.TYPE}")
    for step in range(1, cls.VERSION):
        if not callable(getattr(cls, f"upcast_v{step}_v{step + 1}", None)):
            raise RuntimeError(f"{cls.__name__} lacks upcast_v{step}_v{step + 1}")
    made = dataclasses.dataclass(frozen=True, kw_only=True)(cls)
    _CLASSES[cls.TYPE] = made
    return made


def event_class(type_: str) -> type[DomainEvent]:
    found = _CLASSES.get(type_)
    if found is None:
        raise UnknownEventTypeError(f"no event class for the type {type_!r}")
    return found


def event_types() -> frozenset[str]:
    return frozenset(_CLASSES)


def by_type(table: Mapping[type[DomainEvent], V]) -> dict[str, V]:
    """A table keyed by event class, keyed by its classes' stored types instead: the
    lookup for a stored row, whose type is a string."""
    return {cls.TYPE: value for cls, value in table.items()}


def stored_version(type_: str, payload: Mapping[str, Any]) -> int:
    cls = event_class(type_)
    version: object = payload.get(VERSION_KEY, 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise EventError(f"{type_} payload has the version {version!r}")
    if version > cls.VERSION:
        raise EventError(f"{type_} v{version} is newer than this code's v{cls.VERSION}")
    return version


def upcast(type_: str, payload: Mapping[str, Any]) -> DomainEvent:
    """The stored payload of an event of `type_` as its class at the current version:
    each `upcast_vN_vN+1` in turn brings an older payload forward."""
    cls = event_class(type_)
    version = stored_version(type_, payload)
    data = dict(payload)
    while version < cls.VERSION:
        step: Callable[[dict[str, Any]], dict[str, Any]] = getattr(
            cls, f"upcast_v{version}_v{version + 1}"
        )
        try:
            data = step(data) | {VERSION_KEY: version + 1}
        except (KeyError, TypeError, ValueError) as exc:
            raise EventError(
                f"{type_} v{version} payload cannot be brought to v{version + 1}: "
                f"{type(exc).__name__} {exc}"
            ) from exc
        version += 1
    return cls.from_payload(data)
