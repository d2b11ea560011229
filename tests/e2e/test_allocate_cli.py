"""`flask --app market allocate` through the application's CLI: RULES Example T-1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.unit.test_allocate_cli import T1

FINAL = {"N3": 837_626_459, "N4": 1_671_089_494, "N5": 2_504_552_529, "N6": 441_731_518}


def test_allocate_prints_the_t1_allocation_and_writes_nothing(app: Any, tmp_path: Path) -> None:
    apps = [
        {
            "id": i,
            "request_cents": d * 100,
            "in_innovation_zone": z,
            "received_at": f"2013-03-{n + 1:02d}T09:00:00Z",
        }
        for n, (i, d, z) in enumerate(T1)
    ]
    source = tmp_path / "fy2013.json"
    source.write_text(json.dumps({"applications": apps, "ruleset": "A1178"}))
    result = app.test_cli_runner().invoke(
        args=["allocate", "--fiscal-year", "2013", "--input", str(source)]
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["fiscal_year"] == 2013 and out["triggered"] is True
    assert out["total_cents"] == 60_000_000_00
    got = {a["id"]: a["allocated_cents"] for a in out["allocations"]}
    assert [a["id"] for a in out["allocations"]] == [i for i, _, _ in T1]
    assert {k: got[k] for k in FINAL} == FINAL
    assert got["Z3"] == 300_000_000 and got["N1"] == 20_000_000
    from market.services.trust.ledger import count_events

    assert count_events(app.extensions["market.engine"]) == 0
