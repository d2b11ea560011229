"""The whole-file figures of scripts/bench_scale: transfers.csv downloaded whole (seconds,
rows, the app's peak traced memory) and the CLI's verify, replay and export as processes of
their own on the largest ledger (peak RSS and seconds)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import scale_build

ROOT = Path(__file__).resolve().parents[2]
GOAL_RSS_MB = 300.0


def csv_download(app: Any) -> dict[str, float]:
    """The whole transfers.csv once: seconds, rows and the app's peak traced memory."""
    api = app.test_client()
    r = api.post(
        "/api/v1/auth/token", json={"email": "eda@bench", "password": scale_build.PASSWORD}
    )
    headers = {"Authorization": f"Bearer {r.get_json()['token']}"}
    tracemalloc.start()
    start = time.perf_counter()
    r = api.get("/api/v1/reports/transfers.csv", headers=headers, buffered=False)
    lines = 0
    for chunk in r.response:
        lines += chunk.count(b"\n") if isinstance(chunk, bytes) else chunk.count("\n")
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    r.close()
    return {"seconds": elapsed, "rows": lines - 1, "peak_mb": peak / 2**20}


def cli_rss(url: str, args: list[str]) -> dict[str, float]:
    """Peak RSS (MB) and seconds of `flask --app market <args>` in a process of its own."""
    env = dict(os.environ, DATABASE_URL=url)
    flask = str(Path(sys.executable).with_name("flask"))
    start = time.perf_counter()
    with open(os.devnull, "w") as null:
        proc = subprocess.Popen(
            [flask, "--app", "market", *args],
            env=env,
            stdout=null,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"flask {' '.join(args)} failed: {err[-2000:]}")
    return {"rss_mb": usage.ru_maxrss / 1024, "seconds": time.perf_counter() - start}


def cli_figures(url: str) -> dict[str, dict[str, float]]:
    cli = {
        "verify": cli_rss(url, ["verify"]),
        "replay": cli_rss(url, ["replay"]),
        "export events": cli_rss(url, ["export", "events", "--output", os.devnull]),
        "export transfers": cli_rss(url, ["export", "transfers", "--output", os.devnull]),
    }
    cli["verify after replay"] = cli_rss(url, ["verify"])
    return cli


def cli_rows(big: int, cli: dict[str, dict[str, float]]) -> list[tuple[Any, ...]]:
    return [
        (
            f"CLI {name} peak RSS MB @ {big:,} ({r['seconds']:.0f} s)",
            r["rss_mb"],
            "-",
            None,
            None,
            f"< {GOAL_RSS_MB:g}",
            r["rss_mb"] < GOAL_RSS_MB,
        )
        for name, r in cli.items()
    ]
