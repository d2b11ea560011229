"""scripts/bench_http's table rows for one app run against bare Flask and the thin write."""

from __future__ import annotations

from typing import Any


def rows_for(
    backend: str, label: str, ours: dict[str, Any], bare: dict[str, Any], thin: dict[str, Any]
) -> list[Any]:
    ratio = ours["requests_per_s"] / bare["requests_per_s"]
    name = f"{backend}{label}"
    cpu = [
        (
            f"{name}: CPU ms per request, {part}",
            ours["cpu_ms"][part],
            f"bare Flask {part}",
            bare["cpu_ms"][part],
            None,
            "reported",
            True,
        )
        for part in ("app", "db", "client")
    ]
    # Statements a write request sent under load (its batch's shared among its units);
    # unknown for a tree without the metric.
    sent = ours.get("statements_per_request")
    statements = (
        []
        if sent is None
        else [(f"{name}: statements per write request", sent, "", None, None, "<= 5", sent <= 5)]
    )
    return [
        (
            f"{name}: transfers/s (create, confirm, approve)",
            ours["transfers_per_s"],
            "",
            None,
            None,
            "reported",
            True,
        ),
        (
            f"{name}: write requests/s",
            ours["requests_per_s"],
            "bare Flask requests/s",
            bare["requests_per_s"],
            ratio,
            ">= 0.30",
            ratio >= 0.30,
        ),
        (
            f"{name}: p50 latency ms",
            ours["p50_ms"],
            "bare Flask p50 ms",
            bare["p50_ms"],
            None,
            "reported",
            True,
        ),
        (
            f"{name}: p99 latency ms",
            ours["p99_ms"],
            "bare Flask p99 ms",
            bare["p99_ms"],
            None,
            "<= 50",
            ours["p99_ms"] <= 50,
        ),
        (
            f"{name}: errors",
            ours["errors"],
            "bare Flask errors",
            bare["errors"],
            None,
            "0",
            ours["errors"] == 0 and bare["errors"] == 0,
        ),
        *cpu,
        (
            f"{name}: commits (fsyncs) per write request",
            ours["commits_per_request"],
            "mean batch",
            ours["mean_batch"],
            None,
            "<= 0.25",
            ours["commits_per_request"] <= 0.25,
        ),
        *statements,
        (
            f"{name}: ledger verifies after the run ({ours['events']} events)",
            float(ours["verify_ok"]),
            "",
            None,
            None,
            "1",
            ours["verify_ok"],
        ),
    ]
