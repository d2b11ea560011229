"""Bad-login flood: does an authenticated read keep its latency while 16 clients hammer
POST /api/v1/auth/token with wrong passwords? (Issue 15's goal: p99 within 3x of the
unloaded p99.)

The service runs as scripts/run does (gunicorn, 2 workers x 4 threads, the production
argon2id parameters: MARKET_ARGON2_FAST is removed from the environment). The load is
Debian's wrk (apt-get install -y wrk), a C client, so the measuring side is not the
bottleneck: one connection reads GET /api/v1/reports/caps with a bearer token; 16 (or
--flood-connections) connections (2 threads) post wrong passwords, with a Lua script.
Scenarios:

- one-account: every bad login names the same real account (locked after
  LOGIN_MAX_FAILURES, then refused with 429 before any hashing);
- many-accounts: every bad login names a different e-mail from one address (the per-address
  limit, LOGIN_MAX_FAILURES_PER_ADDRESS, locks the address);
- no-throttle: both limits set out of reach, so every request hashes: only the bounded
  pool (PASSWORD_HASH_CONCURRENCY=1 per process) protects the read.

Besides the read's latency, each line gives the flood's answers that were hashed (401, a
wrong password checked) and refused as busy (503), and the machine's load average at the
end (other work on the machine moves every figure).

`--front nginx` puts the tested TLS front (tests/fixtures/nginx_tls_front.conf, with its
sign-in rate limit) before gunicorn, as docs/DEPLOYMENT.md deploys it: both wrk clients
then speak HTTPS to nginx.

Usage: scripts/bench_login [--seconds S] [--scenarios one-account,many-accounts,no-throttle]
       [--backend sqlite|postgresql] [--front none|nginx] [--threads 4]
       [--flood-connections 16]  (past the front's burst of 32, the surplus is refused at once)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PASSWORD = "bench-login-passphrase"
EMAIL = "bench-eda@x.org"
READ = "/api/v1/reports/caps?fiscal_year=2013"
FLOOD_LUA = """
local n = 0
local one = os.getenv("BENCH_ONE_ACCOUNT") == "1"
request = function()
  n = n + 1
  local email = one and "@EMAIL@" or ("nobody-" .. math.random(1, 1e9) .. "-" .. n .. "@x.org")
  local body = '{"email":"' .. email .. '","password":"not-the-password-' .. n .. '"}'
  return wrk.format("POST", "/api/v1/auth/token", {["Content-Type"] = "application/json"}, body)
end
-- Answers by status: 401 was hashed (a wrong password), 503 refused as busy, 429 locked.
local threads = {}
setup = function(thread) table.insert(threads, thread) end
s401, s503, s429 = 0, 0, 0
response = function(status)
  if status == 401 then s401 = s401 + 1 elseif status == 503 then s503 = s503 + 1
  elseif status == 429 then s429 = s429 + 1 end
end
done = function()
  local a, b, c = 0, 0, 0
  for _, t in ipairs(threads) do
    a, b, c = a + t:get("s401"), b + t:get("s503"), c + t:get("s429")
  end
  io.write(string.format("statuses 401=%d 503=%d 429=%d\\n", a, b, c))
end
""".replace("@EMAIL@", EMAIL)
SCENARIOS = {
    "one-account": {"BENCH_ONE_ACCOUNT": "1"},
    "many-accounts": {"BENCH_ONE_ACCOUNT": "0"},
    "no-throttle": {
        "BENCH_ONE_ACCOUNT": "0",
        "LOGIN_MAX_FAILURES": "1000000000",
        "LOGIN_MAX_FAILURES_PER_ADDRESS": "1000000000",
    },
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database(backend: str, tmp: str) -> str:
    if backend == "sqlite":
        return f"sqlite:///{tmp}/market.db"
    name = f"bench_login_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"


def prepare(url: str, env: dict[str, str]) -> None:
    subprocess.run(
        [str(ROOT / ".venv/bin/flask"), "--app", "market", "db", "upgrade"],
        env=env,
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            str(ROOT / ".venv/bin/flask"),
            "--app",
            "market",
            "users",
            "create",
            "--email",
            EMAIL,
            "--role",
            "authority",
            "--password-stdin",
        ],
        env=env,
        check=True,
        capture_output=True,
        input=PASSWORD.encode(),
    )


def serve(port: int, env: dict[str, str], threads: int = 2) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            str(threads),
            "--keep-alive",
            "30",
            "--log-level",
            "warning",
            "--bind",
            f"127.0.0.1:{port}",
            "market.wsgi:app",
        ],
        env=env,
        cwd=str(ROOT),
        start_new_session=True,
    )
    for _ in range(100):
        try:
            requests.get(f"http://127.0.0.1:{port}/api/v1/openapi.json", timeout=30)
            return proc
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=20)


def token(base: str, verify: str | bool) -> str:
    r = requests.post(
        f"{base}/api/v1/auth/token",
        json={"email": EMAIL, "password": PASSWORD},
        timeout=30,
        verify=verify,
    )
    r.raise_for_status()
    return str(r.json()["token"])


def _ms(value: str, unit: str) -> float:
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def parse_wrk(out: str) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for pct in ("50", "90", "99"):
        m = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if m:
            result[f"p{pct}_ms"] = _ms(m[1], m[2])
    m = re.search(r"^\s*(\d+) requests in", out, re.M)
    result["requests"] = int(m[1]) if m else 0
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    result["non_2xx"] = int(m[1]) if m else 0
    m = re.search(r"^statuses 401=(\d+) 503=(\d+) 429=(\d+)", out, re.M)
    if m:
        result["hashed"], result["busy"], result["locked"] = (int(g) for g in m.groups())
    return result


def wrk(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["wrk", *args], stdout=subprocess.PIPE, text=True, env={**os.environ, **(env or {})}
    )


def read_latency(base: str, bearer: str, seconds: int) -> dict[str, Any]:
    proc = wrk(
        [
            "-t1",
            "-c1",
            f"-d{seconds}s",
            "--latency",
            "-H",
            f"Authorization: Bearer {bearer}",
            f"{base}{READ}",
        ]
    )
    out, _ = proc.communicate()
    return parse_wrk(out)


@contextmanager
def front(kind: str, port: int, tmp: str) -> Iterator[tuple[str, str | bool]]:
    """(the base URL the clients use, what `requests` verifies TLS with)."""
    if kind == "none":
        yield f"http://127.0.0.1:{port}", True
        return
    sys.path.insert(0, str(ROOT))
    from tests.ops_servers import nginx_front

    with nginx_front(port, Path(tmp)) as nginx:
        yield nginx.https, nginx.cert


def scenario(
    name: str,
    backend: str,
    seconds: int,
    kind: str = "none",
    threads: int = 2,
    connections: int = 16,
) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="bench_login_")
    url = database(backend, tmp)
    env = {k: v for k, v in os.environ.items() if k != "MARKET_ARGON2_FAST"}
    env |= {"DATABASE_URL": url, "SECRET_KEY": "bench", "FLASK_APP": "market"}
    env |= {k: v for k, v in SCENARIOS[name].items() if not k.startswith("BENCH_")}
    if kind == "nginx":
        env["TRUSTED_PROXIES"] = "1"  # as deployed behind the front: the client's address
    prepare(url, env)
    port = free_port()
    proc = serve(port, env, threads)
    lua = Path(tmp) / "flood.lua"
    lua.write_text(FLOOD_LUA)
    try:
        with front(kind, port, tmp) as (base, verify):
            bearer = token(base, verify)
            read_latency(base, bearer, 2)  # warm-up
            unloaded = read_latency(base, bearer, seconds)
            flood = wrk(
                [
                    "-t2",
                    f"-c{connections}",
                    f"-d{seconds + 4}s",
                    "--latency",
                    "-s",
                    str(lua),
                    f"{base}/",
                ],
                SCENARIOS[name],
            )
            time.sleep(2)
            loaded = read_latency(base, bearer, seconds)
            flood_out, _ = flood.communicate()
            floodstats = parse_wrk(flood_out)
    finally:
        stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)
    ratio = loaded["p99_ms"] / unloaded["p99_ms"]
    return {
        "scenario": name,
        "unloaded": unloaded,
        "loaded": loaded,
        "flood": floodstats,
        "ratio": ratio,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--scenarios", default="one-account,many-accounts,no-throttle")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--front", choices=["none", "nginx"], default="none")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads a worker")
    parser.add_argument("--flood-connections", type=int, default=16)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    print(
        f"{'scenario':15} {'read p50/p99 unloaded':>22} {'read p50/p99 flooded':>22} "
        f"{'ratio':>6} {'flood req/s':>11} {'hashed':>7} {'busy':>6}  goal p99 <= 3x  load"
    )
    for name in args.scenarios.split(","):
        r = scenario(
            name, args.backend, args.seconds, args.front, args.threads, args.flood_connections
        )
        u, lo, f = r["unloaded"], r["loaded"], r["flood"]
        rate = f["requests"] / (args.seconds + 4)
        print(
            f"{name:15} {u['p50_ms']:9.2f} / {u['p99_ms']:7.2f} ms "
            f"{lo['p50_ms']:9.2f} / {lo['p99_ms']:7.2f} ms {r['ratio']:6.2f} {rate:11.0f} "
            f"{f.get('hashed', '?'):>7} {f.get('busy', '?'):>6}  "
            f"{'met' if r['ratio'] <= 3 else 'NOT met':13} {os.getloadavg()[0]:5.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
