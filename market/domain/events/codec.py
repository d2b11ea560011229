"""How an event class's fields meet a stored payload: which keys it must have, which it
may leave out, and what each value must be (a JSON value of the annotated type).

A field declared with `omitted(default)` is written only when its value differs from the
default: the key older events (or rarer cases) never carried stays absent, so the
payload's canonical JSON, and its hash, is the one the dict-built event had."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

ISO_DATE = "iso-date"
# A date as ISO text (`date.isoformat()`): it must read back as the same text.
IsoDate = Annotated[str, ISO_DATE]
JsonObject = Mapping[str, Any]

Check = Callable[[Any], str | None]  # None: the value is acceptable; else what is wrong


class EventError(ValueError):
    """An event that cannot be built or read: the message says which and why."""


class UnknownEventTypeError(EventError, LookupError):
    """A stored type string no event class claims."""


def omitted(default: Any = None) -> Any:
    """A field whose key is written only when its value is not `default`."""
    return dataclasses.field(default=default, metadata={"omit": True})


@dataclasses.dataclass(frozen=True)
class FieldSpec:
    name: str
    omit: bool
    default: Any
    check: Check


def _iso_date(value: Any) -> str | None:
    try:
        same = date.fromisoformat(value).isoformat() == value
    except (TypeError, ValueError):
        same = False
    return None if same else f"{value!r} is not an ISO date (YYYY-MM-DD)"


def _scalar(kind: type) -> Check:
    def check(value: Any) -> str | None:
        # bool is an int to Python, never to a payload: 1 and true hash differently.
        ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        return None if ok else f"{value!r} is not {kind.__name__}"

    return check


def _union(options: list[Check], nullable: bool) -> Check:
    def check(value: Any) -> str | None:
        if value is None:
            return None if nullable else "null is not allowed"
        problems = [c(value) for c in options]
        return None if None in problems else " and ".join(p for p in problems if p)

    return check


def _sequence(item: Check) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, (list, tuple)):
            return f"{value!r} is not a list"
        for n, v in enumerate(value):
            if (problem := item(v)) is not None:
                return f"item {n}: {problem}"
        return None

    return check


def _mapping(item: Check) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, Mapping):
            return f"{value!r} is not an object"
        for k, v in value.items():
            if not isinstance(k, str):
                return f"key {k!r} is not a string"
            if (problem := item(v)) is not None:
                return f"{k}: {problem}"
        return None

    return check


def checker(annotation: Any) -> Check:
    """The check for one field's annotation (the few forms event classes use)."""
    origin = get_origin(annotation)
    if annotation is Any:
        return lambda value: None
    if origin is Annotated:
        base, *marks = get_args(annotation)
        inner = checker(base)
        if ISO_DATE not in marks:
            return inner
        return lambda value: inner(value) or _iso_date(value)
    if origin in (types.UnionType, typing.Union):
        args = get_args(annotation)
        return _union([checker(a) for a in args if a is not type(None)], type(None) in args)
    if origin is Literal:
        allowed = get_args(annotation)
        return lambda value: None if value in allowed else f"{value!r} is not one of {allowed}"
    if annotation in (bool, int, str):
        return _scalar(annotation)
    if origin in (Sequence, list, tuple):
        return _sequence(checker(get_args(annotation)[0]))
    if origin in (Mapping, dict):
        return _mapping(checker(get_args(annotation)[1]))
    raise TypeError(f"no payload check for the annotation {annotation!r}")


def field_specs(cls: type) -> tuple[FieldSpec, ...]:
    hints = get_type_hints(cls, include_extras=True)
    return tuple(
        FieldSpec(
            f.name,
            bool(f.metadata.get("omit")),
            f.default,
            checker(hints[f.name]),
        )
        for f in dataclasses.fields(cls)
    )
