"""One delivery pass: fan out what the ledger committed, then send what is due."""

from __future__ import annotations

from typing import TypedDict

from sqlalchemy import Engine

from market.services.notify import fanout, mailer, webhook_sender
from market.services.notify.delivery import Settings


def fan_out(engine: Engine) -> int:
    fanned = 0
    while fanout.lag(engine) > 0 and (handled := fanout.run_once(engine)):
        fanned += handled
    return fanned


class DeliveryPass(TypedDict):
    """What one pass did: events fanned out, and the mail and webhook senders' counts."""

    fanned_out: int
    email: dict[str, int]
    webhooks: dict[str, int]


def deliver_once(engine: Engine, settings: Settings) -> DeliveryPass:
    """One pass that waits for what it sends (the `deliver` command)."""
    return {
        "fanned_out": fan_out(engine),
        "email": mailer.send_due(engine, settings),
        "webhooks": webhook_sender.send_due(engine, settings),
    }


class Worker:
    """The long-running worker's pass: webhooks go on a pool it does not wait for."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine, self.settings = engine, settings
        self.sender = webhook_sender.Sender(engine, settings)

    def run_pass(self) -> DeliveryPass:
        return {
            "fanned_out": fan_out(self.engine),
            "email": mailer.send_due(self.engine, self.settings),
            "webhooks": self.sender.run_pass(),
        }

    def close(self) -> None:
        self.sender.close()
