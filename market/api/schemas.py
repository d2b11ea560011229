"""Marshmallow schemas shared by the API blueprints (unknown fields are refused)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from market.validation.fields import MAX_CENTS as MAX_CENTS
from market.validation.fields import cents as cents
from market.validation.tech import EntityFacts as EntityFacts

MAX_BPS = 10_000
MAX_CURSOR = 2**63 - 1  # cursors are seqs: 64-bit integers on both databases


def bps(required: bool = True) -> fields.Integer:
    return fields.Integer(strict=True, required=required, validate=validate.Range(0, MAX_BPS))


def text(max_len: int, required: bool = True) -> fields.String:
    return fields.String(required=required, validate=validate.Length(min=1, max=max_len))


class PageArgs(Schema):
    after = fields.String(load_default=None, validate=validate.Length(max=100))
    limit = fields.Integer(strict=False, load_default=50, validate=validate.Range(1, 500))


class SeqPageArgs(Schema):
    """`after` is the seq cursor a previous page returned as `next`."""

    after = fields.Integer(strict=False, load_default=None, validate=validate.Range(0, MAX_CURSOR))
    limit = fields.Integer(strict=False, load_default=50, validate=validate.Range(1, 500))


class EventOut(Schema):
    seq = fields.Integer()
    stream = fields.String()
    version = fields.Integer()
    type = fields.String()
    payload = fields.Dict()
    actor = fields.String()
    recorded_at = fields.String()
    prev_hash = fields.String()
    hash = fields.String()


def page_of(
    item: type[Schema],
    name: str,
    cursor: fields.Field[Any] | None = None,
    extra: dict[str, fields.Field[Any]] | None = None,
) -> type[Schema]:
    """The OpenAPI description of a paged list answer: `{items: [item, ...], next}`; `next`
    is the cursor to pass back (null on the last page). Documentation only: the views
    build the answer as `{"items": <item dumps>, "next": ...}` (a dict's `items` is also
    its method, so this schema is never used to dump one)."""
    nxt = cursor or fields.Integer(allow_none=True)
    body = {"items": fields.List(fields.Nested(item), required=True), "next": nxt}
    return Schema.from_dict(body | (extra or {}), name=name)
