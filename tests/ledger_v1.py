"""The ledger written by the code before typed events (tests/fixtures/ledger_v1_flows.py
says how), and the projection tables that code folded from it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def _events() -> tuple[str, ...]:
    return tuple((FIXTURES / "ledger_v1.jsonl").read_text(encoding="utf-8").splitlines())


def events() -> list[dict[str, Any]]:
    """Every event of the ledger (fresh dicts), in seq order."""
    return [json.loads(line) for line in _events()]


def tables() -> dict[str, list[dict[str, Any]]]:
    """Every projection table as the old code left it, rows in primary-key order."""
    loaded: dict[str, list[dict[str, Any]]] = json.loads(
        (FIXTURES / "ledger_v1_tables.json").read_text(encoding="utf-8")
    )
    return loaded


def of_type(type_: str) -> list[dict[str, Any]]:
    return [e for e in events() if e["type"] == type_]
