"""CPU of a write request in process, and how much of it runs under the ledger head.

The Flask test client on SQLite sends create, confirm and approve (each with its own
Idempotency-Key) one at a time, so every unit of work is a batch of one. The process CPU
(`time.process_time`) of each phase is summed by wrapping the project's own methods: the
batch's enter (BEGIN IMMEDIATE, the head read), the command (reads, rules, typed events
and their projections), the unit's tail (its events' and key's inserts), the batch's
commit (the COMMIT included) and its exit. "under the head" is the batch from enter to
exit. The test client's own work is in the total, not under the head.

`--trees A B ...` runs each tree (a checkout or a `git archive`) in its own process,
alternately, `--repeat` times, and reports each tree's minimum (CPU time only grows with
the machine's other load, so the least of a few runs is the steadiest figure).

Usage: scripts/bench_under_lock [--rounds 600] [--repeat 5] [--trees DIR ...] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ERA = "2013-06-30"
WARM = 30
PHASES = {
    ("write_batch", "WriteBatch", "__enter__"): "batch enter (BEGIN, head read)",
    ("write_batch", "WriteBatch", "commit"): "batch commit (COMMIT included)",
    ("write_batch", "WriteBatch", "__exit__"): "batch exit",
    ("uow", "UnitOfWork", "commit"): "unit tail (events, key)",
}


def _timed(acc: dict[str, float], key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            acc[key] += time.process_time() - start

    return wrapper


def measure(rounds: int) -> dict[str, float]:
    """One tree, this process: CPU ms per write request, total and by phase."""
    import importlib

    from http_setup import prepare

    from market import create_app
    from market.services.kernel import clock, runner

    acc: dict[str, float] = defaultdict(float)
    for (module, cls, name), key in PHASES.items():
        owner = getattr(importlib.import_module(f"market.services.kernel.{module}"), cls)
        setattr(owner, name, _timed(acc, key, getattr(owner, name)))
    lead = importlib.import_module("market.services.kernel.group_commit").GroupCommitter
    lead._lead = _timed(acc, "under the head", lead._lead)
    execute_in = runner.execute_in

    def command_timed(uow: Any, command: Any, render: Any, idem: Any, **kw: Any) -> Any:
        return execute_in(uow, _timed(acc, "command", command), render, idem, **kw)

    runner.execute_in = command_timed
    clock.configure(ERA)
    url = f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    setup = prepare(url)
    app = create_app(
        {"DATABASE_URL": url, "SECRET_KEY": "bench", "TESTING": True, "MARKET_TODAY": ERA}
    )
    logging.disable(logging.CRITICAL)
    client = app.test_client()

    def bearer(who: str) -> dict[str, str]:
        body = {"email": f"bench-{who}@x.org", "password": "bench-password"}
        token = client.post("/api/v1/auth/token", json=body).get_json()["token"]
        return {"Authorization": f"Bearer {token}"}

    seller, buyer, eda = bearer("seller"), bearer("buyer"), bearer("eda")
    body = {
        "certificate_id": setup["certificate_ids"][0],
        "buyer_party_id": setup["buyer"],
        "amount_cents": 100_000,
        "consideration_cents": 80_000,
    }
    keys = itertools.count()

    def post(path: str, sent: Any, headers: dict[str, str]) -> Any:
        return client.post(
            path, json=sent, headers={**headers, "Idempotency-Key": f"k{next(keys)}"}
        )

    def sale() -> None:
        made = post("/api/v1/transfers", body, seller).get_json()
        post(f"/api/v1/transfers/{made['id']}/confirm", {}, buyer)
        done = post(f"/api/v1/transfers/{made['id']}/approve", {}, eda).get_json()
        assert done["status"] == "approved", done

    for _ in range(WARM):
        sale()
    acc.clear()
    start = time.process_time()
    for _ in range(rounds):
        sale()
    requests = 3 * rounds
    figures = {"total": (time.process_time() - start) / requests * 1000}
    figures |= {key: spent / requests * 1000 for key, spent in acc.items()}
    return figures


def compare(trees: list[Path], rounds: int, repeat: int) -> dict[str, dict[str, float]]:
    best: dict[str, dict[str, float]] = {}
    for _ in range(repeat):
        for tree in trees:
            env = os.environ | {"PYTHONPATH": f"{tree}{os.pathsep}{HERE}"}
            out = subprocess.run(
                [sys.executable, __file__, "--one", "--rounds", str(rounds)],
                cwd=tree,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            got = json.loads(out.strip().splitlines()[-1])
            kept = best.setdefault(str(tree), got)
            for key, value in got.items():
                kept[key] = min(kept.get(key, value), value)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--trees", type=Path, nargs="*", default=[HERE.parents[1]])
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.rounds)))
        return
    best = compare([t.resolve() for t in args.trees], args.rounds, args.repeat)
    if args.json:
        print(json.dumps(best, indent=2))
        return
    for tree, figures in best.items():
        print(f"{tree} (min of {args.repeat} runs of {args.rounds} sales; CPU ms a write request)")
        for key, value in sorted(figures.items(), key=lambda kv: -kv[1]):
            print(f"  {key:34s} {value:6.3f}")


if __name__ == "__main__":
    main()
