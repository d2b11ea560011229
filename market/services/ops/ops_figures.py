"""The ledger's figures a scrape of /metrics reports, read from the database at scrape
time (market/adapters/metrics.py says why): the outbox's lag, deliveries by outcome,
checkpoints."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, case, func, select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import head, page_events
from market.adapters.metrics import Gauge
from market.adapters.tables import CheckpointRow, EmailMessage, WebhookAttempt, WebhookDelivery
from market.services.notify import fanout

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
deliveries_t = WebhookDelivery.__table__  # type: ignore[attr-defined]
attempts_t = WebhookAttempt.__table__  # type: ignore[attr-defined]
checkpoints_t = CheckpointRow.__table__  # type: ignore[attr-defined]


def outbox_lag(conn: Connection) -> tuple[int, float]:
    """Events committed but not yet fanned out, and the age in seconds of the oldest."""
    seq = head(conn)[0]
    done = fanout.cursor(conn, fanout.CONSUMER)
    oldest = page_events(conn, done, 1) if seq > done else []
    if not oldest:
        return 0, 0.0
    at = datetime.fromisoformat(oldest[0].recorded_at.replace("Z", "+00:00"))
    return seq - done, max(0.0, (datetime.now(UTC) - at).total_seconds())


def _deliveries(conn: Connection) -> Gauge:
    samples: list[tuple[tuple[str, ...], float]] = []
    for channel, table in (("email", mail_t), ("webhook", deliveries_t)):
        rows = conn.execute(select(table.c.status, func.count()).group_by(table.c.status))
        samples += [((channel, status), float(n)) for status, n in rows.all()]
    return Gauge(
        "market_deliveries",
        "Messages the outbox owes, by channel and status (pending, sent, delivered).",
        ("channel", "status"),
        samples,
    )


def _attempts(conn: Connection) -> Gauge:
    code = attempts_t.c.status_code
    outcome = case(
        (code.is_(None), "error"), ((code >= 200) & (code < 300), "ok"), else_="http_error"
    )
    rows = conn.execute(select(outcome, func.count()).group_by(outcome)).all()
    return Gauge(
        "market_webhook_attempts",
        "Webhook sending attempts by outcome (ok: 2xx; http_error: another status; "
        "error: no answer).",
        ("outcome",),
        [((str(name),), float(n)) for name, n in rows],
    )


def figures(engine: Engine) -> list[Gauge]:
    with engine.connect() as conn:
        events, age = outbox_lag(conn)
        seq = head(conn)[0]
        count, size = conn.execute(
            select(func.count(), func.coalesce(func.max(checkpoints_t.c.tree_size), 0))
        ).one()
        return [
            Gauge("market_ledger_events", "Events in the ledger (its head seq).", (), [((), seq)]),
            Gauge(
                "market_outbox_lag_events",
                "Events committed but not yet fanned out by the worker.",
                (),
                [((), float(events))],
            ),
            Gauge(
                "market_outbox_lag_seconds",
                "Age of the oldest event not yet fanned out (0 when none waits).",
                (),
                [((), age)],
            ),
            _deliveries(conn),
            _attempts(conn),
            Gauge("market_checkpoints", "Signed checkpoints made.", (), [((), float(count))]),
            Gauge(
                "market_checkpoint_tree_size",
                "Tree size of the latest signed checkpoint (0: none yet).",
                (),
                [((), float(size))],
            ),
        ]
