"""Every operation in /api/v1/openapi.json gets an `operationId` (its view's name, unique)
and a `summary` (its docstring's first line, or its name in words), so a generated client
has a named function for each (apispec plugin, passed to flask-smorest's Api)."""

from __future__ import annotations

from typing import Any

from apispec import BasePlugin


class OperationNames(BasePlugin):
    def __init__(self) -> None:
        super().__init__()
        self.taken: dict[str, str] = {}

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        rule = kwargs.get("rule")
        endpoint = str(getattr(rule, "endpoint", "") or path or "")
        blueprint, _, view = endpoint.rpartition(".")
        for method, op in (operations or {}).items():
            if not isinstance(op, dict):
                continue
            name = view or f"{method}_{path}"
            if len(operations or {}) > 1 and not view:
                name = f"{method}_{name}"
            # A view name is unique within its blueprint; prefix the blueprint on a clash.
            if self.taken.get(name, endpoint) != endpoint:
                name = f"{blueprint}_{name}"
            self.taken[name] = endpoint
            op.setdefault("operationId", name)
            if not op.get("summary"):
                op["summary"] = view.replace("_", " ").capitalize() or method.upper()
