"""The service as scripts/run serves it (gunicorn, two workers), on SQLite and
PostgreSQL: /metrics adds up both workers' counters (prometheus-client's multiprocess
mode), its scrape passes `promtool check metrics`, and every line the server writes
with LOG_FORMAT=json is one JSON object."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import requests

from tests.e2e.test_ops_endpoints import sample
from tests.ops_servers import gunicorn, need

pytestmark = pytest.mark.storage
MAX_REQUESTS = 400


def workers_counted(multiproc_dir: Path) -> set[str]:
    """The processes that have observed a request (one histogram file each)."""
    found = (re.fullmatch(r"histogram_(\d+)\.db", p.name) for p in multiproc_dir.iterdir())
    return {m.group(1) for m in found if m}


def test_metrics_add_up_both_workers_and_pass_promtool(database_url: str, tmp_path: Path) -> None:
    promtool = need("promtool", "prometheus")
    with gunicorn(database_url, tmp_path) as served:
        sent = 0
        # Fresh connections until both workers have answered some (the kernel picks).
        while sent < 20 or len(workers_counted(served.multiproc_dir)) < 2:
            assert sent < MAX_REQUESTS, "one worker answered every request"
            r = requests.get(f"{served.url}/healthz", headers={"Connection": "close"}, timeout=10)
            assert r.status_code == 200
            sent += 1
        scrape = requests.get(f"{served.url}/metrics", timeout=10)
        ready = requests.get(f"{served.url}/readyz", timeout=10)
    assert scrape.status_code == 200
    text = scrape.text
    route = {"route": "/healthz", "method": "GET", "status": "200"}
    # The startup probe's requests are counted too: at least `sent`, and exactly the
    # request lines the two workers logged.
    counted = sample(text, "market_http_request_duration_seconds_count", **route)
    lines = [json.loads(line) for line in served.log.read_text().splitlines()]
    logged = [x for x in lines if x.get("event") == "request" and x.get("route") == "/healthz"]
    assert counted == len(logged) >= sent
    assert ready.status_code == 200, ready.text
    checked = subprocess.run(
        [promtool, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "market_outbox_lag_events" in text and "market_checkpoints" in text
