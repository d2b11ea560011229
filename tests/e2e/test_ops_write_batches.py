"""The write path's batch metrics (group commit calls `observe_write_batch`): a histogram
of units of work per commit and counters of commits and of the statements they sent, in
/metrics, passing promtool."""

from __future__ import annotations

import subprocess
from typing import Any

from market.adapters import metrics
from tests.e2e.test_ops_endpoints import sample
from tests.ops_servers import need


def test_write_batches_are_counted_and_bucketed_in_the_scrape(client: Any) -> None:
    promtool = need("promtool", "prometheus")
    before = client.get("/metrics").text
    for size in (1, 3, 3, 40):
        metrics.observe_write_batch(size, 10 * size)
    text = client.get("/metrics").text

    def grew(name: str, **labels: str) -> float:
        return sample(text, name, **labels) - sample(before, name, **labels)

    assert grew("market_write_batches_total") == 4
    assert grew("market_write_batch_statements_total") == 470
    assert grew("market_write_batch_size_count") == 4
    assert grew("market_write_batch_size_sum") == 47
    assert grew("market_write_batch_size_bucket", le="1.0") == 1
    assert grew("market_write_batch_size_bucket", le="4.0") == 3
    assert grew("market_write_batch_size_bucket", le="32.0") == 3
    assert grew("market_write_batch_size_bucket", le="64.0") == 4
    assert grew("market_write_batch_size_bucket", le="+Inf") == 4
    checked = subprocess.run(
        [promtool, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
