"""How every benchmark prints its rows: a table for people, JSON for scripts/bench."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

COLUMNS = ("figure", "value", "baseline", "baseline_value", "ratio", "goal", "met")
Row = Sequence[Any]  # (figure, value, baseline, baseline value | None, ratio | None, goal, met)


def emit(rows: Sequence[Row], as_json: bool) -> None:
    if as_json:
        print(json.dumps([dict(zip(COLUMNS, row, strict=True)) for row in rows]))
        return
    for fig, val, base, bval, ratio, goal, met in rows:
        b = f"{base} {bval:,.1f}" if bval is not None else ""
        rt = f"{ratio:.2f}" if ratio is not None else ""
        print(f"{fig:58} {val:12,.1f}  {b:36} {rt:>5}  {goal:18} {'met' if met else 'NOT met'}")
