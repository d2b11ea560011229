"""`export events|transfers --format csv|json [--output FILE]` and
`expire-carryforwards --tax-year N`."""

from __future__ import annotations

from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext

from market.domain.rulesets import get_ruleset
from market.services.certificates.carryforwards import Expiry, expire_carryforwards
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.queries import exports


def _engine() -> Any:
    return current_app.extensions["market.engine"]


@click.command("export")
@click.argument("what", type=click.Choice(["events", "transfers"]))
@click.option("--format", "fmt", type=click.Choice(exports.FORMATS), default="csv")
@click.option("--output", type=click.Path(dir_okay=False, writable=True), default=None)
@with_appcontext
def export(what: str, fmt: str, output: str | None) -> None:
    """Write the events or the transfers report as CSV or JSON (stdout by default),
    streamed: read and written a thousand rows at a time."""
    with ReadOnly(_engine()) as conn:
        chunks = exports.export_chunks(conn, what, fmt)
        if output is None:
            for chunk in chunks:
                click.echo(chunk, nl=False)
        else:
            with open(output, "w", encoding="utf-8", newline="") as f:
                for chunk in chunks:
                    f.write(chunk)
    if output is not None:
        click.echo(f"wrote {what} to {output}", err=True)


@click.command("expire-carryforwards")
@click.option("--tax-year", "tax_year", type=int, required=True)
@with_appcontext
def expire(tax_year: int) -> None:
    """Expire every held balance whose carryover window closed before TAX_YEAR."""
    ruleset = get_ruleset(current_app.config["RULESET"])

    def command(uow: UnitOfWork) -> list[Expiry]:
        return expire_carryforwards(uow, SYSTEM, ruleset, tax_year)

    done = run(_engine(), command)
    for e in done:
        click.echo(f"{e['certificate_id']}: {e['amount_cents']} cents expired")
    click.echo(f"{len(done)} certificate(s) expired before tax year {tax_year}")
