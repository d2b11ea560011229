"""Prometheus metrics (prometheus-client): what each process counts, and the rendering
of a scrape.

Counters and histograms live here, one set per process. Under gunicorn (several worker
processes) PROMETHEUS_MULTIPROC_DIR must name an empty directory, set before start-up:
prometheus-client then keeps each process's values in files there and a scrape adds
them up, so a counter is the service's count, not one worker's (scripts/run sets it).
Without it (one process, tests) the process's own registry is the whole truth.

Gauges that describe the ledger (outbox lag, deliveries, checkpoints) are not counted
here: they are read from the database at scrape time (`Gauge`), so every worker
answers the same and none can drift.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

CONTENT_TYPE = CONTENT_TYPE_LATEST
# The *_created series would double the scrape and say nothing an operator uses.
disable_created_metrics()  # type: ignore[no-untyped-call]
# Seconds; the pages' p95 targets are tens of milliseconds, sign-in hashes take ~100 ms.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Histogram(
    "market_http_request_duration_seconds",
    "HTTP requests by route template (the URL rule, never the raw path), method and status.",
    ["route", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
WRITE_BATCH_SIZE = Histogram(
    "market_write_batch_size",
    "Units of work per committed write batch (group commit: one fsync each).",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)
WRITE_BATCHES = Counter(
    "market_write_batches_total",
    "Committed write batches (group commit), whatever their size: one fsync each.",
)
WRITE_BATCH_STATEMENTS = Counter(
    "market_write_batch_statements_total",
    "SQL statements committed write batches sent (BEGIN and SAVEPOINT included).",
)
LOGIN_FAILURES = Counter(
    "market_login_failures_total",
    "Failed sign-ins (wrong password or second factor), API and pages together.",
)


@dataclass(frozen=True)
class Gauge:
    """A figure read from the database at scrape time."""

    name: str
    help: str
    labels: tuple[str, ...] = ()
    samples: list[tuple[tuple[str, ...], float]] = field(default_factory=list)


class _Gauges(Collector):
    def __init__(self, gauges: Iterable[Gauge]) -> None:
        self.gauges = list(gauges)

    def collect(self) -> Iterable[GaugeMetricFamily]:
        for g in self.gauges:
            family = GaugeMetricFamily(g.name, g.help, labels=list(g.labels))
            for values, value in g.samples:
                family.add_metric(list(values), value)
            yield family


def multiprocess() -> bool:
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def observe_request(route: str, method: str, status: int, seconds: float) -> None:
    REQUESTS.labels(route=route, method=method, status=str(status)).observe(seconds)


def count_login_failure() -> None:
    LOGIN_FAILURES.inc()


def scrape(gauges: Iterable[Gauge]) -> bytes:
    """The text exposition: every process's counters, then the database's gauges."""
    if multiprocess():
        counted = CollectorRegistry()
        MultiProcessCollector(counted)  # type: ignore[no-untyped-call]
    else:
        counted = REGISTRY
    read = CollectorRegistry()
    read.register(_Gauges(gauges))
    return generate_latest(counted) + generate_latest(read)


def observe_write_batch(size: int, statements: int) -> None:
    """A write batch of `size` units of work committed, having sent `statements`
    (services/kernel/group_commit.py)."""
    WRITE_BATCH_SIZE.observe(size)
    WRITE_BATCHES.inc()
    WRITE_BATCH_STATEMENTS.inc(statements)
