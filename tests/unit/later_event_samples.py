"""Payloads of event types newer than the old ledger (tests/fixtures/ledger_v1.jsonl),
for the round-trip test: one or more per type, as the services write them."""

from __future__ import annotations

from typing import Any

LATER_SAMPLES: dict[str, list[dict[str, Any]]] = {
    "PARTY_FACTS_RECORDED": [
        {"party_id": "pty_1", "naics_code": "541715", "employees": {"2024": 12, "2025": 14}},
        {"party_id": "pty_2", "naics_code": None, "employees": {}},
    ],
    "RECORDS_IMPORTED": [
        {
            "import_id": "imp_1",
            "kind": "certificates",
            "sha256": "ab" * 32,
            "file_name": "registry.csv",
            "rows": 3,
            "imported": 3,
            "first_seq": 10,
            "last_seq": 18,
        }
    ],
}
