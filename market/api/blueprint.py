"""flask-smorest's Blueprint, parsing arguments with one schema instance per schema class."""

from __future__ import annotations

from typing import Any

import flask_smorest
from marshmallow import Schema
from webargs.flaskparser import FlaskParser


class _Parser(FlaskParser):
    """webargs builds a new schema from a schema class for every request (deep-copying its
    fields), which costs more than the load itself. A schema holds no per-request state
    (marshmallow 4 has no `context`), so one instance per class serves every request."""

    def __init__(self) -> None:
        super().__init__()
        self._instances: dict[type[Schema], Schema] = {}

    def _get_schema(self, argmap: Any, req: Any) -> Schema:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            schema = self._instances.get(argmap)
            if schema is None:
                schema = self._instances.setdefault(argmap, argmap())
            return schema
        return super()._get_schema(argmap, req)


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = _Parser()
