"""Every benchmark in one table: `scripts/bench [--quick]`.

Runs scripts/bench_ledger, scripts/bench_rules and scripts/bench_http, each of which
measures its figures and their baselines in the same run, and prints one table: figure,
value, baseline, baseline value, ratio, goal, met. bench_ledger and bench_http print JSON
rows with --json; bench_rules prints a text table, which is parsed here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"


def _run(name: str, args: list[str], timeout: float) -> tuple[str, float]:
    """Run one script. Its output goes to files, not pipes, so a server it leaves behind
    cannot hold the runner up; its process group is killed if it overruns `timeout`."""
    started = time.monotonic()
    print(f"== {name} {' '.join(args)}", file=sys.stderr, flush=True)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            [str(SCRIPTS / name), *args],
            cwd=ROOT,
            stdout=out,
            stderr=err,
            text=True,
            start_new_session=True,
        )
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise RuntimeError(f"{name} took more than {timeout:.0f} s") from None
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if code != 0:
        raise RuntimeError(f"{name} exited {code}: {stderr[-2000:]}")
    return stdout, time.monotonic() - started


def _json_rows(stdout: str) -> list[dict[str, Any]]:
    """The last line that parses as a JSON list (scripts may print progress before it)."""
    for line in reversed(stdout.strip().splitlines()):
        line = line.strip()
        if line.startswith("["):
            rows: list[dict[str, Any]] = json.loads(line)
            return rows
    start = stdout.find("[")
    rows = json.loads(stdout[start:])
    return rows


def _rules_rows(stdout: str) -> list[dict[str, Any]]:
    """bench_rules prints `figure  measured  baseline  ratio  goal  met?` columns."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    header = next(i for i, line in enumerate(lines) if line.startswith("figure"))
    rows = []
    for line in lines[header + 1 :]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != 6:
            break
        figure, measured, baseline, ratio, goal, met = cells
        base_name, _, base_value = baseline.rpartition(" ")
        rows.append(
            {
                "figure": figure,
                "value": float(measured),
                "baseline": base_name or baseline,
                "baseline_value": _number(base_value),
                "ratio": _number(ratio.rstrip("x")),
                "goal": goal,
                "met": met == "yes",
            }
        )
    return rows


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        if value >= 1000:
            return f"{value:,.0f}"
        return f"{value:.3g}" if value < 10 else f"{value:.1f}"
    return str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (about a minute)")
    parser.add_argument("--only", choices=["ledger", "rules", "http"], action="append")
    parser.add_argument("--appends", type=int, help="bench_ledger --appends")
    parser.add_argument("--events", type=int, help="bench_ledger --events")
    parser.add_argument("--seconds", type=float, help="bench_http --seconds")
    parser.add_argument("--connections", type=int, help="bench_http --connections")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--timeout", type=float, default=1200, help="seconds per script")
    args = parser.parse_args(argv)
    quick = {"appends": 300, "events": 5_000, "seconds": 3.0, "connections": 4, "backend": "sqlite"}
    size = {k: getattr(args, k) or (quick[k] if args.quick else None) for k in quick}

    def opts(*names: str) -> list[str]:
        return [x for n in names if size[n] is not None for x in (f"--{n}", str(size[n]))]

    benches = {
        "ledger": ("bench_ledger", [*opts("appends", "events"), "--json"], _json_rows),
        "rules": ("bench_rules", [], _rules_rows),
        "http": ("bench_http", [*opts("seconds", "connections", "backend"), "--json"], _json_rows),
    }
    rows: list[dict[str, Any]] = []
    failed = []
    for name, (script, script_args, parse) in benches.items():
        if args.only and name not in args.only:
            continue
        try:
            stdout, took = _run(script, script_args, args.timeout)
            for row in parse(stdout):
                rows.append({"bench": name, **row})
            print(f"   {name}: {took:.0f} s", file=sys.stderr, flush=True)
        except Exception as exc:  # one broken script must not hide the others' figures
            failed.append(f"{name}: {exc}")
            last = str(exc).strip().splitlines()[-1][:90]
            rows.append({"bench": name, "figure": f"FAILED ({last})", "met": False})
    if args.json:
        print(json.dumps(rows))
    else:
        columns = ["bench", "figure", "value", "baseline", "baseline_value", "ratio", "goal", "met"]
        titles = ["bench", "figure", "value", "baseline", "baseline value", "ratio", "goal", "met"]
        table = [titles] + [[_fmt(r.get(c)) for c in columns] for r in rows]
        widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
        for n, line in enumerate(table):
            print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
            if n == 0:
                print("  ".join("-" * w for w in widths))
        met = sum(1 for r in rows if r.get("met") is True)
        print(f"\n{met} of {len(rows)} goals met" + (" (quick sizes)" if args.quick else ""))
    for failure in failed:
        print(f"FAILED {failure}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
