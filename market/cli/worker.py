"""`worker` (deliver, and tick periodically, until stopped), `deliver` (one pass), and
`tick [--as-of DATE]` (what the calendar makes due, once)."""

from __future__ import annotations

import json
import signal
import time
from datetime import date
from typing import Any

import click
import structlog
from flask import Flask, current_app
from flask.cli import with_appcontext

from market.domain.errors import DomainError
from market.domain.rulesets import get_ruleset
from market.services.jobs import ticks
from market.services.jobs.worker import DeliveryPass, Worker, deliver_once
from market.services.kernel import clock
from market.services.notify.delivery import Settings
from market.services.trust.checkpoints import TrustSettings

log = structlog.get_logger("market.worker")


def settings_of(app: Flask) -> Settings:
    return Settings.from_config(app.config)


def _engine() -> Any:
    return current_app.extensions["market.engine"]


def _signer() -> Any:
    return current_app.extensions["market.signer_engine"]  # SIGNER_DATABASE_URL


def _trust() -> TrustSettings:
    return TrustSettings.from_config(current_app.config, current_app.instance_path)


@click.command("deliver")
@with_appcontext
def deliver() -> None:
    """One delivery pass over what is due (inbox, e-mail, webhooks), then exit."""
    click.echo(json.dumps(deliver_once(_engine(), settings_of(current_app))))


@click.command("tick")
@click.option(
    "--as-of", "as_of", default=None, help="Business date (default: MARKET_TODAY or today)."
)
@with_appcontext
def tick(as_of: str | None) -> None:
    """Fiscal-year roll, carryforward expiry and reminders due by the date, once; a signed
    checkpoint if the ledger grew."""
    day = date.fromisoformat(as_of) if as_of else clock.today()
    rules = get_ruleset(current_app.config["RULESET"])
    try:
        done = ticks.tick(_engine(), rules, day, _trust(), _signer())
    except DomainError as e:
        raise click.ClickException(f"{e.message} ({e.code})") from e
    click.echo(json.dumps(done, indent=2))
    refused = refusal(done)
    if refused:
        raise click.ClickException(refused)


def refusal(done: ticks.TickReport) -> str | None:
    """The loud line for a checkpoint the tick refused to sign, if it did."""
    made = done.get("steps", {}).get("checkpoint")
    if isinstance(made, dict) and "refused" in made:
        return f"CHECKPOINT REFUSED ({made['refused']}): {made['message']}"
    return None


def log_tick(done: ticks.TickReport) -> None:
    """One line a tick: the steps it ran now (not those already done that day), or why it
    did not run (another worker holds the tick lease)."""
    steps = done.get("steps", {})
    ran = [name for name, _ in ticks.STEPS if name in steps and steps[name] != "already done"]
    log.info("tick", as_of=done.get("as_of"), skipped=done.get("skipped"), ran=ran)


def busy(passed: DeliveryPass) -> bool:
    """Whether a delivery pass found work (else the worker sleeps before the next)."""
    hooks, mail = passed["webhooks"], passed["email"]
    return bool(passed["fanned_out"] or any(hooks.values()) or any(mail.values()))


@click.command("worker")
@click.option("--poll", default=0.25, show_default=True, help="Seconds between delivery passes.")
@click.option("--tick-every", default=60.0, show_default=True, help="Seconds between ticks.")
@with_appcontext
def worker(poll: float, tick_every: float) -> None:
    """Deliver continuously and tick periodically until SIGTERM or SIGINT."""
    engine, settings = _engine(), settings_of(current_app)
    rules = get_ruleset(current_app.config["RULESET"])
    stopping = False

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    next_tick = 0.0
    passes = Worker(engine, settings)
    log.info("worker delivering", poll_s=poll, tick_every_s=tick_every)
    while not stopping:
        try:
            if tick_every > 0 and time.monotonic() >= next_tick:
                done = ticks.tick(engine, rules, clock.today(), _trust(), _signer())
                log_tick(done)
                if refused := refusal(done):
                    click.echo(f"worker: {refused}", err=True)
                next_tick = time.monotonic() + tick_every
            passed: DeliveryPass | None = passes.run_pass()
        except Exception as exc:  # a database outage must not end the worker
            log.error("worker pass failed", error=type(exc).__name__, detail=str(exc)[:300])
            passed = None
        if passed is None or not busy(passed):
            time.sleep(poll)
    passes.close()
    log.info("worker stopped")
