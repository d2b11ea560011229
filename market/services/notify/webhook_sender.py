"""Webhook deliveries per the Standard Webhooks specification, by the worker.

Headers `webhook-id` (the delivery's id: the same on every retry), `webhook-timestamp`
(seconds since the epoch, of this attempt) and `webhook-signature`
(`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the base64 part of
the `whsec_` secret); body `{type, timestamp, data: {seq, type, stream, payload}}`.
A 2xx marks it delivered; 410 Gone disables the subscription (its messages wait until
its owner resumes it); anything else (an error, a timeout, a refused address) records the
attempt and retries with exponential backoff and full jitter, until DELIVERY_MAX_ATTEMPTS
attempts, when the message is 'failed'. `type` is the dotted name (`transfer.approved`),
`data.payload` only what the subscriber may read (webhook_payloads.py). Each attempt
checks the URL again and connects to the address it checked (pinned_http.py).
Deliveries run on a pool of threads, each with its own timeout, so a receiver that hangs
holds one thread for at most the timeout and never the others.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass

from market.adapters.eventstore import Event
from market.adapters.notifications import pinned_http
from market.adapters.notifications.pinned_http import WebhookPost
from market.adapters.notifications.target_guard import check_target
from market.adapters.repositories import notify_deliveries as deliveries
from market.adapters.repositories.notify_deliveries import AttemptRecord
from market.adapters.repositories.notify_models import WebhookMessage, WebhookSubscription
from market.domain.errors import DomainError
from market.services.kernel import clock
from market.services.kernel.numbering import new_id
from market.services.kernel.reads import Engine
from market.services.notify import delivery
from market.services.notify.delivery import Settings
from market.services.notify.event_names import dotted
from market.services.notify.webhook_payloads import payload_for


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.{body}".encode()
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()


@dataclass(frozen=True)
class AttemptOutcome:
    """What one POST of a delivery came to: the HTTP status (None: no answer), the error
    (None: a 2xx), how long it took and when."""

    delivery: WebhookMessage
    status: int | None
    error: str | None
    ms: int
    at: str


def body_of(event: Event, hook: WebhookSubscription) -> str:
    return json.dumps(
        {
            "type": dotted(event.type),
            "timestamp": event.recorded_at,
            "data": {
                "seq": event.seq,
                "type": event.type,
                "stream": event.stream,
                "payload": payload_for(hook.party_id, event.type, event.payload),
            },
        },
        separators=(",", ":"),
        sort_keys=True,
    )


def attempt(
    settings: Settings,
    row: WebhookMessage,
    hook: WebhookSubscription,
    event: Event,
    post: WebhookPost,
) -> AttemptOutcome:
    """One POST; what happened, to be recorded with the pass's other outcomes."""
    body = body_of(event, hook)
    stamp = int(time.time())
    headers = {
        "content-type": "application/json",
        "user-agent": "nj-market-webhooks/1",
        "webhook-id": row.id,
        "webhook-timestamp": str(stamp),
        "webhook-signature": sign(hook.secret, row.id, stamp, body),
    }
    started = time.monotonic()
    status: int | None = None
    error: str | None = None
    try:
        target = check_target(hook.url, settings)  # again at delivery: DNS may change
        status = post(target, headers, body.encode(), settings.timeout_s)
        if not 200 <= status < 300:
            error = f"HTTP {status}"
    except DomainError as exc:
        error = exc.message
    except Exception as exc:  # any failure of this one delivery is its attempt's outcome
        error = f"{type(exc).__name__}: {exc}"[:500]
    took = int((time.monotonic() - started) * 1000)
    return AttemptOutcome(row, status, error, took, delivery.now_iso())


def _next_state(settings: Settings, o: AttemptOutcome) -> dict[str, str | int]:
    """The delivery's columns after this attempt: delivered, given up ('failed'), or due
    again (at once after a 410: it waits for its owner's resume; else after a backoff)."""
    attempts = o.delivery.attempts + 1
    if o.error is None:
        return {"attempts": attempts, "status": "delivered", "delivered_at": o.at}
    if o.status == 410:
        return {"attempts": attempts, "next_attempt_at": o.at}
    if attempts >= settings.max_attempts:
        return {"attempts": attempts, "status": "failed"}
    retry = clock.now_utc() + delivery.jittered_backoff(settings, attempts)
    return {"attempts": attempts, "next_attempt_at": delivery.iso(retry)}


def record(engine: Engine, settings: Settings, outcomes: list[AttemptOutcome]) -> None:
    """Every outcome of a pass in one transaction: the attempt log, and the delivery
    marked delivered or given its next attempt."""
    if not outcomes:
        return

    def record_of(o: AttemptOutcome) -> AttemptRecord:
        gone = o.error is not None and o.status == 410  # the receiver asks us to stop
        return AttemptRecord(
            id=new_id("att"),
            message=o.delivery,
            attempted_at=o.at,
            status_code=o.status,
            error=o.error,
            duration_ms=o.ms,
            gone=gone,
            next_state=_next_state(settings, o),
        )

    deliveries.record_attempts(engine, outcomes, record_of)


class Sender:
    """Deliveries on a pool of threads. A pass records what finished since the last one,
    claims as many due deliveries as there are free threads, and starts them; the worker
    does not wait for them (a hanging receiver holds its thread for the timeout, nothing
    else), the one-pass `deliver` does (`wait=True`)."""

    def __init__(
        self, engine: Engine, settings: Settings, post: WebhookPost = pinned_http.post
    ) -> None:
        self.engine, self.settings, self.post = engine, settings, post
        self.pool = ThreadPoolExecutor(max_workers=settings.senders)
        self.running: set[Future[AttemptOutcome]] = set()

    def _drain(self) -> dict[str, int]:
        finished = {f for f in self.running if f.done()}
        self.running -= finished
        outcomes = [f.result() for f in finished]
        record(self.engine, self.settings, outcomes)
        ok = sum(1 for o in outcomes if o.error is None)
        return {"delivered": ok, "failed": len(outcomes) - ok}

    def run_pass(self, wait: bool = False) -> dict[str, int]:
        done = self._drain()
        free = self.settings.senders * 4 - len(self.running)
        if free > 0:
            now = clock.now_utc()
            rows = deliveries.claim_due_deliveries(self.engine, free, self.settings.lease_s, now)
        else:
            rows = []
        if rows:
            hooks, events = deliveries.hooks_and_events(self.engine, rows)
            for r in rows:
                hook, event = hooks[r.webhook_id], events[r.seq]
                self.running.add(
                    self.pool.submit(attempt, self.settings, r, hook, event, self.post)
                )
        done["started"] = len(rows)
        if wait:
            futures_wait(self.running)
            later = self._drain()
            done = {k: done[k] + later.get(k, 0) for k in done}
        return done

    def close(self) -> dict[str, int]:
        self.pool.shutdown(wait=True)
        return self._drain()


def send_due(
    engine: Engine, settings: Settings, post: WebhookPost = pinned_http.post
) -> dict[str, int]:
    """One pass that waits for its deliveries (the `deliver` command)."""
    sender = Sender(engine, settings, post)
    try:
        done = sender.run_pass(wait=True)
    finally:
        sender.close()
    return {"delivered": done["delivered"], "failed": done["failed"]}
