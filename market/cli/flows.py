"""`roll-fiscal-year`: allow what the digital media pools queued, on July 1 of a new FY."""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

from market.domain.errors import DomainError
from market.domain.rulesets import get_ruleset
from market.services.certificates import dm_pools
from market.services.kernel import clock
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.kernel.uow import UnitOfWork


@click.command("roll-fiscal-year")
@click.option("--fiscal-year", "fiscal_year", type=int, required=True, help="State FY, e.g. 2015.")
@with_appcontext
def roll_fiscal_year(fiscal_year: int) -> None:
    """Roll every digital media pool into FISCAL_YEAR (DMQ-3) and print what was allowed."""
    engine = current_app.extensions["market.engine"]
    rules = get_ruleset(current_app.config["RULESET"])

    def command(uow: UnitOfWork) -> dm_pools.FiscalYearRoll:
        return dm_pools.roll_fiscal_year(uow, SYSTEM, fiscal_year, rules, clock.today())

    try:
        done = run(engine, command)
    except DomainError as exc:  # a fiscal year not begun on the business date (DMQ-3)
        raise click.ClickException(exc.message) from None
    click.echo(json.dumps(done, indent=2))
