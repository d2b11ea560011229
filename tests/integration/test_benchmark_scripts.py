"""The benchmark scripts still run: each once at a toy size, as a process of its own, as a
reader would run it. (scripts/bench_units stopped working when events became typed and
nothing noticed until it was next run by hand.) What they measure is not asserted here:
figures are the scripts' business and are reported in the README."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "scripts" / "benchmarks"


def _run(script: str, *args: str) -> list[dict[str, object]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), MARKET_TODAY="2014-12-01")
    done = subprocess.run(
        [sys.executable, script, *args, "--json"],
        cwd=BENCHMARKS,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(done.stdout)
    assert rows, "the script reported no figure"
    return rows  # type: ignore[no-any-return]


@pytest.mark.parametrize("case", ["expire", "tech"])
def test_units_of_work_of_any_size_runs(case: str) -> None:
    rows = _run(
        "units_bench.py", "--backend", "sqlite", "--small", "5", "--large", "20", "--case", case
    )
    assert len(rows) == 2  # CPU and wall seconds


def test_reads_at_scale_builds_a_ledger_and_measures_each_page() -> None:
    rows = _run("scale_bench.py", "--sizes", "200,400", "--requests", "1", "--no-cli", "--no-csv")
    assert any("page /authority" in str(r) for r in rows)
