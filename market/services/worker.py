"""One delivery pass: fan out what the ledger committed, then send what is due."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from market.services import fanout, mailer, webhook_sender
from market.services.delivery import Settings


def deliver_once(engine: Engine, settings: Settings) -> dict[str, Any]:
    fanned = 0
    while fanout.lag(engine) > 0 and (handled := fanout.run_once(engine)):
        fanned += handled
    return {
        "fanned_out": fanned,
        "email": mailer.send_due(engine, settings),
        "webhooks": webhook_sender.send_due(engine, settings),
    }
