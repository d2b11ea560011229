"""A statutory report as CSV: one line per figure, `path,value`, the path naming where
the figure sits in the JSON answer (`demand.zone.requested_cents`, a row of a grouped
table by its key: `by_industry.granted[54].cents`). Money stays in integer cents."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

# The field that names a row of a table in the report (its path label).
LABELS = ("key", "reason", "use", "pool", "party_id")


def _lines(prefix: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _lines(f"{prefix}.{k}" if prefix else str(k), v)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            label: Any = i
            rest = item
            if isinstance(item, dict):
                label = next((item[k] for k in LABELS if k in item), i)
                rest = {k: v for k, v in item.items() if k != "key"}
            yield from _lines(f"{prefix}[{label}]", rest)
        if not value:
            yield prefix, ""
    else:
        yield prefix, _text(value)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def report_csv(report: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["path", "value"])
    writer.writerows(_lines("", report))
    return out.getvalue()
