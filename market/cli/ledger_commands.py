"""db upgrade/downgrade, replay, verify."""

from __future__ import annotations

import json
import sys

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy import Engine

from market.adapters import migrate
from market.adapters.rebuild import FoldError
from market.cli import trust_commands
from market.services.trust import ledger


def _engine() -> Engine:
    return current_app.extensions["market.engine"]  # type: ignore[no-any-return]


@click.group()
def db() -> None:
    """Database migrations (Alembic)."""


@db.command("upgrade")
@click.argument("revision", default="head")
@with_appcontext
def upgrade(revision: str) -> None:
    owner = trust_commands.owner_engine()  # MIGRATION_DATABASE_URL when set
    migrate.upgrade(owner, revision)
    click.echo(f"database at {migrate.current(owner)}")


@db.command("downgrade")
@click.argument("revision", default="-1")
@with_appcontext
def downgrade(revision: str) -> None:
    owner = trust_commands.owner_engine()
    migrate.downgrade(owner, revision)
    click.echo(f"database at {migrate.current(owner) or 'base'}")


@click.command("replay")
@with_appcontext
def replay() -> None:
    """Rebuild every projection from the events; refused over a ledger that contradicts
    a signed checkpoint."""
    checked = trust_commands.check_against_checkpoints()
    if not checked.ok:
        for problem in checked.problems:
            click.echo(problem, err=True)
        raise click.ClickException("the ledger contradicts a signed checkpoint: not replayed")
    total = ledger.count_events(_engine())
    with click.progressbar(length=total, label="replaying events") as bar:
        try:
            count = ledger.replay(_engine(), bar.update)
        except FoldError as e:
            raise click.ClickException(f"{e}; nothing was changed (run verify)") from e
        except ledger.InvariantBrokenError as e:
            for breach in e.breaches:
                click.echo(str(breach), err=True)
            raise click.ClickException(
                f"the events rebuild into tables that break {len(e.breaches)} invariant(s): "
                "not replayed, nothing was changed (run verify)"
            ) from e
        bar.update(total - bar.pos)
    click.echo(f"replayed {count} events")


@click.command("verify")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@with_appcontext
def verify(as_json: bool) -> None:
    """Recompute the hash chain and the projections, and check the ledger against every
    signed checkpoint (CHECKPOINT_DIR and stored); exit 1 on the first mismatch."""
    total = ledger.count_events(_engine())
    with click.progressbar(length=total, label="verifying", file=sys.stderr) as bar:
        report = ledger.verify(_engine(), bar.update)
    checked = trust_commands.check_against_checkpoints()
    report.problems += checked.problems
    if checked.problems:
        report.ok = False
        if report.first_bad_seq is None:
            report.first_bad_seq = checked.first_bad_seq
    for note in checked.untrusted:
        click.echo(note, err=True)
    if as_json:
        click.echo(json.dumps({**report.as_dict(), "checkpoints": checked.as_dict()}))
    elif report.ok:
        click.echo(
            f"ok: {report.events} events, head {report.head_hash}; "
            f"{len(checked.checked)} checkpoint copies (files and stored) agree"
        )
    else:
        for problem in report.problems:
            click.echo(problem, err=True)
        where = "" if report.first_bad_seq is None else f": first bad seq {report.first_bad_seq}"
        click.echo(f"FAILED{where}", err=True)
    if not report.ok:
        raise SystemExit(1)
