"""flask-smorest's Blueprint, with each argument schema built once, when the view is
declared.

webargs builds a new schema for every request when it is given a schema class (a deep copy
of every field, which cost more than the load itself); given an instance, it uses that
instance. Both are documented uses of `Blueprint.arguments`, and a marshmallow 4 schema
keeps no per-request state, so one instance per view serves every request.

Arguments refused by their schema answer 400 `validation_failed` (errors.py), and the
document says so."""

from __future__ import annotations

from typing import Any

import flask_smorest
from marshmallow import Schema


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    def arguments(self, schema: type[Schema] | Schema, *args: Any, **kwargs: Any) -> Any:
        if isinstance(schema, type):
            schema = schema()
        # What is sent: market/api/errors.py answers a schema's refusal with 400.
        kwargs.setdefault("error_status_code", 400)
        return super().arguments(schema, *args, **kwargs)
