"""The compiled dumps (market.api.dumping) give what marshmallow's `schema.dump` gives, for
every output schema of the API, on objects with missing keys, None, extra keys and values
of other types than the field's."""

from __future__ import annotations

import importlib
import pkgutil
import random
from typing import Any

import pytest
from marshmallow import Schema, fields

import market.api
from market.api.dumping import _one, dumper, many_dumper


def _schemas() -> list[type[Schema]]:
    found: dict[str, type[Schema]] = {}
    for info in pkgutil.iter_modules(market.api.__path__):
        module = importlib.import_module(f"market.api.{info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Schema)
                and value.__module__.startswith("market.api")
            ):
                found[f"{value.__module__}.{value.__name__}"] = value
    return [found[k] for k in sorted(found)]


SCALARS: list[Any] = [None, 0, 7, -3, True, False, "", "x", "12", 2.5, b"bytes"]


def _value(field: Any, rng: random.Random, depth: int = 0) -> Any:
    if isinstance(field, fields.Nested) and depth < 3:
        nested = field.schema
        one = _object(type(nested), rng, depth + 1)
        if nested.many or field.many:
            return rng.choice([None, [], [one, _object(type(nested), rng, depth + 1)]])
        return rng.choice([None, one])
    if isinstance(field, fields.List):
        return rng.choice(
            [None, [], [_value(field.inner, rng, depth + 1) for _ in range(rng.randint(1, 3))]]
        )
    if isinstance(field, fields.Dict):
        if field.value_field is not None or field.key_field is not None:
            return rng.choice([None, {}, {"2019": 5}])
        return rng.choice([None, {}, {"a": 1, "b": [1, {"c": None}]}])
    if isinstance(field, fields.Integer):
        return rng.choice([None, 0, 12, -5, True, "42", 3.0])
    if isinstance(field, fields.String):
        return rng.choice([None, "", "text", 12, b"raw", "é"])
    if type(field) in (fields.Raw, fields.Boolean):
        return rng.choice([*SCALARS, [1, 2], {"k": "v"}])
    return None  # other fields (dates, ...): their dumps are marshmallow's own anyway


def _object(kind: type[Schema], rng: random.Random, depth: int = 0) -> dict[str, Any]:
    obj: dict[str, Any] = {"not_a_field": 1}
    for name, field in kind().dump_fields.items():
        key = field.attribute or name
        if rng.random() < 0.85:
            obj[key] = _value(field, rng, depth)
    return obj


@pytest.mark.parametrize("kind", _schemas(), ids=lambda k: k.__name__)
def test_a_compiled_dump_equals_marshmallows(kind: type[Schema]) -> None:
    rng = random.Random(kind.__name__)
    for _ in range(60):
        obj = _object(kind, rng)
        expected = kind().dump(obj)
        assert dumper(kind())(obj) == expected
        assert dumper(kind())(obj).keys() == expected.keys()
        assert many_dumper(kind())([obj, obj]) == kind().dump([obj, obj], many=True)


def test_the_hot_output_schemas_are_compiled() -> None:
    from market.api.trading import LISTING_OUT, OFFER_OUT, TRANSFER_OUT

    for schema in (TRANSFER_OUT, OFFER_OUT, LISTING_OUT):
        assert _one(schema) is not None


def test_a_schema_with_a_hook_or_options_is_dumped_by_marshmallow() -> None:
    from marshmallow import post_dump

    class Hooked(Schema):
        a = fields.String()

        @post_dump
        def upper(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
            return {k: v.upper() for k, v in data.items()}

    assert _one(Hooked()) is None
    assert dumper(Hooked())({"a": "x"}) == {"a": "X"}

    class Plain(Schema):
        a = fields.String()
        b = fields.Integer()

    assert _one(Plain(only=("a",))) is None
    assert dumper(Plain(only=("a",)))({"a": "x", "b": 1}) == {"a": "x"}
