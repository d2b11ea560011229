"""`schema.dump(obj)`, compiled once per schema into one function.

marshmallow walks its fields through several generic calls per field and value (get_value,
the accessor, serialize, _serialize): for a transfer's 17 fields that is 50 microseconds,
more than encoding the response. An output schema made only of plain fields (String,
Integer, Boolean, Raw, Dict without key or value fields, List and Nested of those) is
compiled here into one loop that does exactly what marshmallow does for each of them: the
same keys (`data_key`, `attribute`), the same conversions (str, int, dict copies), the
same skipping of absent keys. Anything else (hooks, dump defaults, custom fields or
accessors) is left to `schema.dump` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, fields, missing
from marshmallow.decorators import POST_DUMP, PRE_DUMP
from marshmallow.utils import ensure_text_type

Dump = Callable[[Any], Any]
# Schema class -> its compiled single-object dump, or None when it cannot be compiled.
# Keyed by class: views build some output schemas per request, and every instance built
# without options (only, exclude, load_only, dump_only) has the same fields.
_COMPILED: dict[type[Schema], Dump | None] = {}


class _Unsupported(Exception):
    pass


def _one(schema: Schema) -> Dump | None:
    if schema.only is not None or schema.exclude or schema.load_only or schema.dump_only:
        return None
    kind = type(schema)
    try:
        return _COMPILED[kind]
    except KeyError:
        pass
    try:
        one: Dump | None = _compile_one(schema)
    except _Unsupported:
        one = None
    return _COMPILED.setdefault(kind, one)


def dumper(schema: Schema) -> Dump:
    """A function giving what `schema.dump(obj)` gives."""
    one = _one(schema)
    if one is None:
        return schema.dump
    return _many(one) if schema.many else one


def many_dumper(schema: Schema) -> Dump:
    """A function giving what `schema.dump(objs, many=True)` gives."""
    one = _one(schema)
    if one is None:
        return lambda objs: schema.dump(objs, many=True)
    return _many(one)


def _many(one: Dump) -> Dump:
    return lambda objs: one(objs) if objs is None else [one(each) for each in objs]


def _compile_one(schema: Schema) -> Dump:
    if (
        type(schema).get_attribute is not Schema.get_attribute
        or schema.dict_class is not dict
        or schema._hooks[PRE_DUMP]
        or schema._hooks[POST_DUMP]
    ):
        raise _Unsupported
    steps: list[tuple[str, str, Callable[[Any], Any]]] = []
    for attr_name, field in schema.dump_fields.items():
        key = field.attribute if field.attribute is not None else attr_name
        if "." in key or field.dump_default is not missing or not field._CHECK_ATTRIBUTE:
            raise _Unsupported
        out = field.data_key if field.data_key is not None else attr_name
        steps.append((key, out, _value(field)))

    def dump(obj: Any) -> dict[str, Any]:
        ret: dict[str, Any] = {}
        mapping = hasattr(obj, "__getitem__")
        for key, out, serialize in steps:
            if mapping:
                try:
                    value = obj[key]
                except (KeyError, IndexError, TypeError, AttributeError):
                    value = getattr(obj, key, missing)
            else:
                value = getattr(obj, key, missing)
            if value is missing:
                continue
            ret[out] = serialize(value)
        return ret

    return dump


def _value(field: Any) -> Callable[[Any], Any]:
    """The field's `_serialize`, for the field types that have an exact equivalent."""
    kind: Any = type(field)
    f: Any = field
    if kind.serialize is not fields.Field.serialize:
        raise _Unsupported
    if kind._serialize is fields.Field._serialize:  # Raw, Boolean: the value as it is
        return _same
    if kind is fields.String:
        return _text
    if kind is fields.Integer and not f.as_string:
        return _integer
    if kind is fields.Dict and f.key_field is None and f.value_field is None:
        mapping_type = f.mapping_type
        return lambda value: None if value is None else mapping_type(value)
    if kind is fields.List:
        inner = _value(f.inner)
        return lambda value: None if value is None else [inner(each) for each in value]
    if kind is fields.Nested:
        nested = f.schema
        one = _compile_one(nested)
        if nested.many or f.many:
            return lambda value: None if value is None else [one(each) for each in value]
        return lambda value: None if value is None else one(value)
    raise _Unsupported


def _same(value: Any) -> Any:
    return value


def _text(value: Any) -> str | None:
    return None if value is None else ensure_text_type(value)


def _integer(value: Any) -> int | None:
    return None if value is None else int(value)
