"""PostgreSQL restarted under load (a cluster the test owns, stopped with a fast shutdown
and started again): an application node (gunicorn, two workers) answers every request
during the outage 503 `database_unavailable` with Retry-After (never a 500, never a
hang), keeps every write it acknowledged, and serves again by itself once the database is
back (the pool's pre-ping replaces the connections the restart broke) — no restart."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.adapters.tables import Party
from market.services.identity import identity
from tests.cluster import Client, Node, shared_settings, wait_for
from tests.helpers import party_body
from tests.own_postgres import own_cluster

pytestmark = pytest.mark.slow
WRITERS = 3
WARM_S, OUTAGE_S, AFTER_S = 3.0, 4.0, 4.0
PASSWORD = "correct horse battery"
parties_t = Party.__table__  # type: ignore[attr-defined]


class Outcomes:
    def __init__(self) -> None:
        self.acknowledged: list[str] = []
        self.unavailable = 0
        self.unexpected: list[str] = []
        self.first_ok_after: dict[str, float] = {}
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.back_at: float | None = None  # when the database took connections again

    def write(self, c: Client, auth: dict[str, str], n: int) -> None:
        r = c.send("POST", "/api/v1/parties", auth, party_body(name=f"Restart Co {n}"))
        with self.lock:
            if r.status_code == 201:
                self.acknowledged.append(r.json()["id"])
                if self.back_at is not None and "ok" not in self.first_ok_after:
                    self.first_ok_after["ok"] = time.monotonic() - self.back_at
            elif (
                r.status_code == 503
                and r.json()["error"]["code"] == "database_unavailable"
                and int(r.headers["Retry-After"]) > 0
            ):
                self.unavailable += 1
            else:
                self.unexpected.append(f"{r.status_code} {r.text[:200]}")

    def run(self, url: str, auth: dict[str, str], i: int) -> None:
        c = Client([url], 0)
        n = 0
        while not self.stop.is_set():
            n += 1
            self.write(c, auth, i * 100_000 + n)
            time.sleep(0.02)
        assert c.retried == 0  # the node itself never stopped answering


def test_postgresql_restarted_mid_load_loses_nothing_and_recovers_alone(tmp_path: Path) -> None:
    with own_cluster() as pg:
        engine = make_engine(pg.url)
        upgrade(engine)
        identity.create_user(engine, "authority@restart.example", "authority", PASSWORD)
        env = shared_settings(pg.url, tmp_path, smtp_port=1)
        node = Node("node", env, tmp_path)
        try:
            node.wait_up()
            token = Client([node.url], 0).send(
                "POST",
                "/api/v1/auth/token",
                {},
                {"email": "authority@restart.example", "password": PASSWORD},
            )
            auth = {"Authorization": f"Bearer {token.json()['token']}"}
            out = Outcomes()
            threads = [
                threading.Thread(target=out.run, args=(node.url, auth, i)) for i in range(WRITERS)
            ]
            for t in threads:
                t.start()
            time.sleep(WARM_S)
            before = len(out.acknowledged)
            engine.dispose()
            down_at = time.monotonic()
            pg.stop()
            time.sleep(OUTAGE_S)
            ready = Client([node.url], 0).send("GET", "/readyz", {})
            pg.start()
            out.back_at = time.monotonic()
            outage_s = out.back_at - down_at
            recovered_s = wait_for(lambda: "ok" in out.first_ok_after, 30, "a write after")
            time.sleep(AFTER_S)
            out.stop.set()
            for t in threads:
                t.join(timeout=30)
            survivor = Client([node.url], 0)
            for pid in out.acknowledged:
                r = survivor.send("GET", f"/api/v1/parties/{pid}", auth)
                assert r.status_code == 200, (pid, r.text)
            verified = survivor.send("GET", "/api/v1/ledger/verify", auth).json()
        finally:
            node_code = node.stop()
        with engine.connect() as conn:
            stored = set(conn.execute(select(parties_t.c.id)).scalars())
            total = int(conn.execute(select(func.count()).select_from(parties_t)).scalar())
        engine.dispose()
    assert not out.unexpected, out.unexpected[:5]
    assert ready.status_code == 503 and "database" in ready.json()["failing"]
    assert out.unavailable > 0 and before > 0 and len(out.acknowledged) > before
    assert set(out.acknowledged) <= stored  # nothing acknowledged lost
    assert verified["ok"] is True, verified
    assert node_code == 0
    print(
        f"\npg restart: {len(out.acknowledged)} writes acknowledged ({before} before the "
        f"outage), lost 0, {total - len(out.acknowledged)} committed unacknowledged; "
        f"{out.unavailable} answered 503 + Retry-After, 0 other errors; outage "
        f"{outage_s:.1f} s; first write served {out.first_ok_after['ok']:.2f} s after the "
        f"server took connections ({recovered_s:.2f} s by the poll)"
    )
