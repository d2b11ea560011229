"""The outbox over the notify context's doors (market.adapters.notifications), with their
in-memory twins: a refused batch waits for its next attempt and a later pass sends it;
a webhook answered 5xx is retried, 2xx delivered, each attempt logged, the body signed
and posted to the address the guard checked."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from market.adapters.tables import EmailMessage, WebhookAttempt, WebhookDelivery
from market.services.jobs.worker import fan_out
from market.services.notify import mailer, webhook_sender
from market.services.notify.delivery import Settings
from tests.e2e.test_notifications_api import sale
from tests.e2e.test_trading_api import Market
from tests.notification_fakes import FakeMailTransport, FakeWebhookPost

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
attempts_t = WebhookAttempt.__table__  # type: ignore[attr-defined]


def _rows(app: Any, table: Any) -> list[dict[str, Any]]:
    with app.extensions["market.engine"].connect() as conn:
        return [dict(r) for r in conn.execute(select(table)).mappings()]


def test_a_refused_batch_waits_and_the_next_pass_sends_it(app: Any, client: Any) -> None:
    app.config.update(SMTP_HOST="smtp.invalid", DELIVERY_BACKOFF_BASE_S=0)
    sale(Market(client), reject="The consideration was not paid.")
    engine, settings = app.extensions["market.engine"], Settings.from_config(app.config)
    assert fan_out(engine) > 0  # the outbox's rows, from the ledger (as `deliver` does)
    down = FakeMailTransport(error="421 try again later")
    first = mailer.send_due(engine, settings, transport=down)
    assert first["sent"] == 0 and first["failed"] > 0
    waiting = _rows(app, mail_t)
    assert {r["status"] for r in waiting} == {"pending"}
    assert {(r["attempts"], r["last_error"]) for r in waiting} == {(1, "421 try again later")}
    up = FakeMailTransport()
    assert mailer.send_due(engine, settings, transport=up) == {"sent": first["failed"], "failed": 0}
    assert {r["status"] for r in _rows(app, mail_t)} == {"sent"}
    assert {m["To"] for m in up.sent} == {r["to_addr"] for r in waiting}


def test_a_webhook_is_retried_on_5xx_and_delivered_signed_on_2xx(app: Any, client: Any) -> None:
    app.config.update(WEBHOOK_ALLOW_PRIVATE_NETWORKS=True, DELIVERY_BACKOFF_BASE_S=0)
    m = Market(client)
    url = "http://127.0.0.1:9/hook"  # never connected to: the fake answers
    made = m.post("/api/v1/webhooks", m.auth, {"url": url, "event_types": ["transfer.approved"]})
    assert made.status_code == 201, made.json
    sale(m)
    engine, settings = app.extensions["market.engine"], Settings.from_config(app.config)
    assert fan_out(engine) > 0
    busy = FakeWebhookPost(status=503)
    assert webhook_sender.send_due(engine, settings, post=busy) == {"delivered": 0, "failed": 1}
    assert [r["status"] for r in _rows(app, deliveries_t)] == ["pending"]
    ok = FakeWebhookPost(status=204)
    assert webhook_sender.send_due(engine, settings, post=ok) == {"delivered": 1, "failed": 0}
    (posted,) = ok.posted
    assert posted["target"].address == "127.0.0.1" and posted["target"].path == "/hook"
    assert posted["headers"]["webhook-signature"].startswith("v1,")
    assert json.loads(posted["body"])["type"] == "transfer.approved"
    assert sorted(a["status_code"] for a in _rows(app, attempts_t)) == [204, 503]
    assert [r["status"] for r in _rows(app, deliveries_t)] == ["delivered"]
