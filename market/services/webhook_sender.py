"""Webhook deliveries per the Standard Webhooks specification, by the worker.

Headers `webhook-id` (the delivery's id: the same on every retry), `webhook-timestamp`
(seconds since the epoch, of this attempt) and `webhook-signature`
(`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the base64 part of
the `whsec_` secret); body `{type, timestamp, data: {seq, type, stream, payload}}`.
A 2xx marks it delivered; anything else (an error, a timeout, a refused address) records
the attempt and retries with exponential backoff. Deliveries run on a pool of threads, each
with its own timeout, so a receiver that hangs holds one thread for at most the timeout and
never the others.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Engine, insert, select, update

from market.adapters.eventstore import event_from_row, events_t
from market.adapters.tables import Webhook, WebhookAttempt, WebhookDelivery
from market.domain.errors import DomainError
from market.services import clock, delivery
from market.services.delivery import Settings
from market.services.fanout import write_transaction
from market.services.numbering import new_id
from market.services.webhooks import check_target

hooks_t = Webhook.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
attempts_t = WebhookAttempt.__table__  # type: ignore[attr-defined]


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.{body}".encode()
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


def body_of(event: Any) -> str:
    return json.dumps(
        {
            "type": event.type,
            "timestamp": event.recorded_at,
            "data": {
                "seq": event.seq,
                "type": event.type,
                "stream": event.stream,
                "payload": event.payload,
            },
        },
        separators=(",", ":"),
        sort_keys=True,
    )


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect could lead past the address check: it counts as a failed attempt."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def post(url: str, headers: dict[str, str], body: str, timeout: float) -> int:
    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def attempt(engine: Engine, settings: Settings, row: dict[str, Any]) -> bool:
    with engine.connect() as conn:
        hook = (
            conn.execute(select(hooks_t).where(hooks_t.c.id == row["webhook_id"])).mappings().one()
        )
        event = event_from_row(
            conn.execute(select(events_t).where(events_t.c.seq == row["seq"])).one()
        )
    body = body_of(event)
    stamp = int(time.time())
    headers = {
        "content-type": "application/json",
        "user-agent": "nj-market-webhooks/1",
        "webhook-id": row["id"],
        "webhook-timestamp": str(stamp),
        "webhook-signature": sign(hook["secret"], row["id"], stamp, body),
    }
    started = time.monotonic()
    status: int | None = None
    error: str | None = None
    try:
        check_target(hook["url"], settings)  # again at delivery: DNS may have changed
        status = post(hook["url"], headers, body, settings.timeout_s)
        if not 200 <= status < 300:
            error = f"HTTP {status}"
    except DomainError as exc:
        error = exc.message
    except (OSError, ValueError) as exc:
        error = f"{type(exc).__name__}: {exc}"[:500]
    took = int((time.monotonic() - started) * 1000)
    ok = error is None
    attempts = int(row["attempts"]) + 1
    values: dict[str, Any] = {"attempts": attempts}
    if ok:
        values |= {"status": "delivered", "delivered_at": delivery.now_iso()}
    else:
        retry = clock.now_utc() + delivery.backoff(settings, attempts)
        values["next_attempt_at"] = delivery.iso(retry)
    with write_transaction(engine) as conn:
        conn.execute(
            insert(attempts_t).values(
                id=new_id("att"),
                delivery_id=row["id"],
                webhook_id=row["webhook_id"],
                seq=row["seq"],
                attempted_at=delivery.now_iso(),
                status_code=status,
                error=error,
                duration_ms=took,
            )
        )
        conn.execute(update(deliveries_t).where(deliveries_t.c.id == row["id"]).values(**values))
    return ok


def send_due(engine: Engine, settings: Settings, limit: int = 200) -> dict[str, int]:
    rows = delivery.claim_due(engine, deliveries_t, "pending", limit, settings.lease_s)
    if not rows:
        return {"delivered": 0, "failed": 0}
    with ThreadPoolExecutor(max_workers=max(1, min(settings.senders, len(rows)))) as pool:
        results = list(pool.map(lambda r: attempt(engine, settings, r), rows))
    return {"delivered": sum(results), "failed": len(results) - sum(results)}
