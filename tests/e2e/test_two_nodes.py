"""Two application nodes (gunicorn, two workers each) and two delivery workers on one
fresh PostgreSQL database. Client threads drive sales through both nodes; mid-load one
node (master and workers) and one worker are SIGKILLed. Then: every acknowledged
certificate and transfer is there in the state acknowledged; every e-mail and webhook the
ledger owes arrived, each under one stable id (at least once: a delivery cut off by the
kill is sent again with the same id); the ledger verifies; and the day's tick ran once
although both workers ticked every half second (the `tick` lease in worker_leases keeps
two ticks from overlapping, and tick_runs' key (step, as_of) lets a step run once a
date)."""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from market.adapters.db import make_engine
from market.adapters.tables import EmailMessage, TickRun, WebhookDelivery
from market.services.identity import identity
from market.services.jobs import ticks
from market.services.ops.ops_figures import outbox_lag
from tests.cluster import Client, Node, Proc, shared_settings, start_worker, wait_for
from tests.conftest import ERA_TODAY, reset_postgres
from tests.deals_servers import Receiver, SmtpServer
from tests.helpers import brrag_award, party_body

pytestmark = pytest.mark.slow
THREADS = 4
SALES = 28  # in all; the kill comes after KILL_AFTER of them
KILL_AFTER = 10
LOAD_DEADLINE_S = 60
FACE = 10_000_000  # $100,000 a certificate: 28 stay under BRRAG's fiscal-year cap
PASSWORD = "correct horse battery"

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
hooks_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
runs_t = TickRun.__table__  # type: ignore[attr-defined]


def fanned_out(engine: Any) -> bool:
    with engine.connect() as conn:
        return outbox_lag(conn)[0] == 0


def count(engine: Any, table: Any, *where: Any) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table).where(*where)).scalar())


class Load:
    """What the client threads were told: each acknowledged id and its state."""

    def __init__(self, tokens: dict[str, dict[str, str]], seller_id: str) -> None:
        self.tokens, self.seller_id = tokens, seller_id
        self.certificates: set[str] = set()
        self.transfers: dict[str, str] = {}
        self.acknowledged = 0  # writes answered 2xx
        self.retried = 0
        self.lock = threading.Lock()
        self.started = 0
        self.failures: list[str] = []

    def ack(self, r: Any, status: int) -> dict[str, Any]:
        assert r.status_code == status, f"{r.status_code} {r.text[:300]}"
        with self.lock:
            self.acknowledged += 1
        return r.json()  # type: ignore[no-any-return]

    def take(self) -> bool:
        with self.lock:
            if self.started >= SALES:
                return False
            self.started += 1
            return True

    def sale(self, c: Client) -> None:
        auth, seller, buyer = (self.tokens[k] for k in ("authority", "seller", "buyer"))
        body = {"program": "BRRAG", "face_cents": FACE, "fiscal_year": 2014}
        body |= {"credit_year": 2013, "holder_party_id": self.seller_id} | brrag_award(FACE)
        cert = self.ack(c.send("POST", "/api/v1/certificates", auth, body), 201)
        with self.lock:
            self.certificates.add(cert["id"])
        listing = self.ack(
            c.send(
                "POST",
                "/api/v1/listings",
                seller,
                {"certificate_id": cert["id"], "amount_cents": FACE, "ask_cents": FACE * 9 // 10},
            ),
            201,
        )
        offer = self.ack(
            c.send(
                "POST",
                f"/api/v1/listings/{listing['id']}/offers",
                buyer,
                {"amount_cents": FACE, "price_cents": FACE * 8 // 10},
            ),
            201,
        )
        accepted = self.ack(c.send("POST", f"/api/v1/offers/{offer['id']}/accept", seller), 201)
        transfer = accepted["transfer"]
        with self.lock:
            self.transfers[transfer["id"]] = transfer["status"]
        approved = self.ack(
            c.send("POST", f"/api/v1/transfers/{transfer['id']}/approve", auth), 200
        )
        with self.lock:
            self.transfers[transfer["id"]] = approved["status"]

    def run(self, nodes: list[str], prefer: int, deadline: float) -> None:
        c = Client(nodes, prefer)
        try:
            while time.monotonic() < deadline and self.take():
                self.sale(c)
        except Exception as exc:  # reported by the test, not lost in the thread
            self.failures.append(f"{type(exc).__name__}: {exc}")
        with self.lock:
            self.retried += c.retried


def sign_in(url: str, engine: Any, role: str, party_id: str | None = None) -> dict[str, str]:
    email = f"{role}-{party_id or 'staff'}@nodes.example"
    identity.create_user(engine, email, role, PASSWORD, party_id)
    c = Client([url], 0)
    r = c.send("POST", "/api/v1/auth/token", {}, {"email": email, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


def setup_market(url: str, engine: Any, rx: Receiver) -> tuple[dict[str, dict[str, str]], str]:
    auth = sign_in(url, engine, "authority")
    c = Client([url], 0)
    parties = {}
    for name, types in (("seller", ["CBT"]), ("buyer", ["CBT", "GIT"])):
        r = c.send("POST", "/api/v1/parties", auth, party_body(name=f"{name} co", tax_types=types))
        assert r.status_code == 201, r.text
        parties[name] = r.json()["id"]
    tokens = {"authority": auth}
    tokens |= {name: sign_in(url, engine, "participant", pid) for name, pid in parties.items()}
    hook = c.send("POST", "/api/v1/webhooks", auth, {"url": rx.url, "event_types": ["*"]})
    assert hook.status_code == 201, hook.text
    rx.secret = hook.json()["secret"]
    return tokens, parties["seller"]


def test_two_nodes_two_workers_lose_nothing_when_one_of_each_is_killed(
    pg_database_url: str, tmp_path: Path
) -> None:
    reset_postgres(pg_database_url)
    engine = make_engine(pg_database_url)
    try:
        _run_two_nodes(engine, pg_database_url, tmp_path)
    finally:  # a failing check must not leave the engine's connections to the GC
        engine.dispose()


def _run_two_nodes(engine: Any, pg_database_url: str, tmp_path: Path) -> None:
    procs: list[Proc] = []
    with Receiver() as rx, SmtpServer() as smtp:
        env = shared_settings(pg_database_url, tmp_path, smtp.port)
        try:
            a, b = Node("node-a", env, tmp_path), Node("node-b", env, tmp_path)
            procs += [a, b]
            a.wait_up()
            b.wait_up()
            tokens, seller_id = setup_market(a.url, engine, rx)
            w1 = start_worker("worker-1", env, tmp_path, tick_every=0.5)
            w2 = start_worker("worker-2", env, tmp_path, tick_every=0.5)
            procs += [w1, w2]
            for w in (w1, w2):  # both running (and contending for the tick) before the load
                wait_for(lambda w=w: any(x.get("event") == "tick" for x in w.lines()), 40, w.name)
            load = Load(tokens, seller_id)
            started = time.monotonic()
            threads = [
                threading.Thread(
                    target=load.run, args=([a.url, b.url], i, started + LOAD_DEADLINE_S)
                )
                for i in range(THREADS)
            ]
            for t in threads:
                t.start()
            wait_for(lambda: len(load.certificates) >= KILL_AFTER, 40, "sales before the kill")
            acked_at_kill = load.acknowledged
            b.kill()
            w2.kill()
            for t in threads:
                t.join(timeout=LOAD_DEADLINE_S + 30)
            load_s = time.monotonic() - started
            assert not load.failures, load.failures
            drained_s = wait_for(
                lambda: fanned_out(engine)
                and count(engine, hooks_t, hooks_t.c.status == "pending") == 0
                and count(engine, mail_t, mail_t.c.status == "pending") == 0
                and len(smtp.messages) >= count(engine, mail_t),
                45,
                "every e-mail and webhook delivered by the surviving worker",
            )
            auth = tokens["authority"]
            survivor = Client([a.url], 0)
            for tid, state in load.transfers.items():
                r = survivor.send("GET", f"/api/v1/transfers/{tid}", auth)
                assert r.status_code == 200 and r.json()["status"] == state, (tid, r.text)
            for cid in load.certificates:
                assert survivor.send("GET", f"/api/v1/certificates/{cid}", auth).status_code == 200
            verified = survivor.send("GET", "/api/v1/ledger/verify", auth).json()
            assert verified["ok"] is True, verified
        finally:
            codes = {p.name: p.stop() for p in procs if p.proc.poll() is None}
        tick_lines = {p.name: [x for x in p.lines() if x.get("event") == "tick"] for p in procs[2:]}
    engine_checks(engine, rx, smtp, load)
    assert codes == {"node-a": 0, "worker-1": 0}, codes
    # Both workers ticked, contending for the lease; each step ran once, in one of them.
    assert all(len(lines) >= 1 for lines in tick_lines.values()), tick_lines
    ran = [step for lines in tick_lines.values() for x in lines for step in x["ran"]]
    assert sorted(ran) == sorted(name for name, _ in ticks.STEPS), tick_lines
    with engine.connect() as conn:
        days = conn.execute(select(runs_t.c.step, runs_t.c.as_of)).all()
    assert sorted(days) == sorted((name, ERA_TODAY) for name, _ in ticks.STEPS)
    print(
        f"\nnodes: {load.acknowledged} writes acknowledged ({acked_at_kill} before the kill), "
        f"{len(load.transfers)} transfers, {load.retried} requests resent after the kill, "
        f"lost 0; load {load_s:.1f} s, outbox drained {drained_s:.1f} s after; "
        f"{len(rx.received)} webhooks for {count(engine, hooks_t)} owed, "
        f"{len(smtp.messages)} e-mails for {count(engine, mail_t)} owed; "
        f"ticks logged {sum(len(v) for v in tick_lines.values())} "
        f"({sum(1 for v in tick_lines.values() for x in v if x['skipped'])} kept out by the lease)"
    )


def engine_checks(engine: Any, rx: Receiver, smtp: SmtpServer, load: Load) -> None:
    assert len(load.transfers) == SALES
    assert all(state == "approved" for state in load.transfers.values())
    ids_by_seq: dict[int, set[str]] = defaultdict(set)
    for x in rx.received:
        ids_by_seq[x["body"]["data"]["seq"]].add(x["headers"]["webhook-id"])
    with engine.connect() as conn:
        owed = {r.seq: r.id for r in conn.execute(select(hooks_t.c.seq, hooks_t.c.id))}
        mailed = {r.id for r in conn.execute(select(mail_t.c.id))}
    assert set(ids_by_seq) == set(owed)  # every event's webhook arrived
    assert all(ids == {owed[seq]} for seq, ids in ids_by_seq.items())  # under one id
    assert rx.rejected == 0
    message_ids = {m["Message-ID"] for m in smtp.messages}
    assert len(message_ids) == len(mailed) > 0  # each e-mail arrived, one Message-ID each
