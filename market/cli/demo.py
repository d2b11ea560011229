"""seed-demo and demo-logins."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from market import document_uploads
from market.domain.rulesets import get_ruleset
from market.services import demo
from market.services.notify import mail_history


@click.command("seed-demo")
@click.option("--if-empty", is_flag=True, help="Do nothing when the ledger already has events.")
@with_appcontext
def seed_demo(if_empty: bool) -> None:
    """Build a believable demo market through the services, dated from the business date
    (MARKET_TODAY, else today in New York)."""
    engine = current_app.extensions["market.engine"]
    if demo.is_seeded(engine):
        if if_empty:
            click.echo("the ledger already has events; demo not seeded")
            return
        raise click.ClickException("the ledger already has events; seed an empty database")
    rules = get_ruleset(current_app.config["RULESET"])
    demo.seed(engine, rules, click.echo, document_uploads.store())
    upto = mail_history.mark_history(engine)  # the demo's past is not e-mailed
    click.echo(f"demo market ready (events 1 to {upto} are history: not e-mailed)")


@click.command("demo-logins")
def demo_logins() -> None:
    """Print the demo users (password: demo-password)."""
    click.echo(f"Demo logins (password: {demo.DEMO_PASSWORD}):")
    for email, role, who in demo.logins():
        click.echo(f"  {email:28} {role:12} {who}")
