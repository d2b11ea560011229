"""The worker is SIGKILLed in the middle of a delivery and started again: every inbox
notice, e-mail and webhook the committed events owe arrives (at least once), and a
webhook sent twice carries the same webhook-id both times."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from market.adapters.tables import EmailMessage, Notification, WebhookDelivery
from tests.deals_servers import Receiver, SmtpServer
from tests.e2e.test_notifications_api import sale
from tests.e2e.test_trading_api import Market

ROOT = Path(__file__).resolve().parents[2]


def start_worker(database_url: str, smtp_port: int, log: Any) -> subprocess.Popen[bytes]:
    env = os.environ | {
        "DATABASE_URL": database_url,
        "SECRET_KEY": "worker-test",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(smtp_port),
        "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "true",
        "DELIVERY_BACKOFF_BASE_S": "0",
    }
    return subprocess.Popen(
        ["flask", "--app", "market", "worker", "--poll", "0.1", "--tick-every", "0"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def wait_for(check: Any, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def count(engine: Any, table: Any, *where: Any) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table).where(*where)).scalar())


def test_sigkill_mid_delivery_loses_nothing(
    app: Any, client: Any, database_url: str, tmp_path: Path
) -> None:
    engine = app.extensions["market.engine"]
    m = Market(client)
    deliveries = WebhookDelivery.__table__  # type: ignore[attr-defined]
    mail = EmailMessage.__table__  # type: ignore[attr-defined]
    with Receiver() as rx, SmtpServer() as smtp:
        app.config["WEBHOOK_ALLOW_PRIVATE_NETWORKS"] = True
        hook = m.post("/api/v1/webhooks", m.auth, {"url": rx.url, "event_types": ["*"]}).json
        rx.secret = hook["secret"]
        for _ in range(3):
            sale(m)
        rx.hold_after_record = 2  # the first deliveries are received, then held unanswered
        log_path = tmp_path / "worker.log"
        log = log_path.open("ab")
        worker = start_worker(database_url, smtp.port, log)
        wait_for(lambda: len(rx.received) >= 2)
        os.kill(worker.pid, signal.SIGKILL)  # mid-delivery: those two have no answer yet
        worker.wait()
        held = list(rx.held_ids)
        assert len(held) == 2
        sale(m)  # committed while no worker runs
        worker = start_worker(database_url, smtp.port, log)
        try:
            wait_for(
                lambda: count(engine, deliveries, deliveries.c.status == "pending") == 0
                and count(engine, deliveries) > 0
                and count(engine, mail, mail.c.status == "pending") == 0
                and len(smtp.messages) >= count(engine, mail)
            )
        finally:
            worker.send_signal(signal.SIGTERM)
            code = worker.wait(timeout=30)
            log.close()
        assert code == 0, log_path.read_text()
    by_seq: dict[int, set[str]] = defaultdict(set)
    for x in rx.received:
        by_seq[x["body"]["data"]["seq"]].add(x["headers"]["webhook-id"])
    with engine.connect() as conn:
        head = int(conn.execute(select(func.max(deliveries.c.seq))).scalar())
        owed = {r.seq: r.id for r in conn.execute(select(deliveries.c.seq, deliveries.c.id))}
    assert set(by_seq) == set(owed) and max(owed) == head  # every event, the late sale too
    assert all(ids == {owed[seq]} for seq, ids in by_seq.items())  # one id per event
    sent = [x["headers"]["webhook-id"] for x in rx.received]
    assert all(sent.count(i) >= 2 for i in held)  # what was held was sent again, same id
    assert rx.rejected == 0
    inbox = Notification.__table__  # type: ignore[attr-defined]
    # 4 sales x (certificate, offer, acceptance, proposal to the Authority, approval x2)
    assert count(engine, inbox) == 4 * 6
    # 4 sales x (offer to the seller, acceptance to the buyer, proposal to the Authority,
    # approval x2)
    assert len({msg["Message-ID"] for msg in smtp.messages}) == count(engine, mail) == 4 * 5
    with engine.connect() as conn:
        mailed = [r.type for r in conn.execute(select(mail.c.type))]
    counts = {"OFFER_MADE": 1, "OFFER_ACCEPTED": 1, "TRANSFER_PROPOSED": 1, "TRANSFER_APPROVED": 2}
    assert sorted(set(mailed)) == sorted(counts)
    assert all(mailed.count(t) == 4 * n for t, n in counts.items())
