"""`import KIND FILE.csv [--dry-run]` (PRODUCT.md 9.1, docs/IMPORT.md): existing records
through the same use cases as a live request; a JSON report on stdout, a progress bar on
stderr when stdout is a terminal. Exit status 1 when any row is refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from flask import current_app
from flask.cli import with_appcontext

from market.domain.rulesets import ScheduleEntry
from market.services.notify import mail_history
from market.services.records.import_rows import KINDS
from market.services.records.importer import ImportFile, run_import


def on_terminal() -> bool:
    """Whether stdout is a terminal (then a progress bar is drawn on stderr)."""
    return sys.stdout.isatty()


def _count_rows(data: bytes) -> int:
    return max(0, data.count(b"\n") - 1)


@click.command("import")
@click.argument("kind", type=click.Choice(sorted(KINDS)))
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Check every row; write nothing.")
@with_appcontext
def import_records(kind: str, file: Path, dry_run: bool) -> None:
    """Import parties, certificates or transfers from a CSV file (docs/IMPORT.md)."""
    data = file.read_bytes()
    engine: Any = current_app.extensions["market.engine"]
    # The ruleset in force at each row's date: the deployment's (RULESET) from any date.
    schedule = (ScheduleEntry(current_app.config["RULESET"]),)
    request = ImportFile(kind, data, file.name, schedule, dry_run=dry_run)
    if on_terminal():
        with click.progressbar(
            length=_count_rows(data), label=f"importing {kind}", file=sys.stderr
        ) as bar:
            report = run_import(engine, request, progress=bar.update)
    else:
        report = run_import(engine, request)
    if report.imported:
        mail_history.mark_history(engine)  # the registry's past is not e-mailed
    click.echo(json.dumps(report.as_dict(), indent=2))
    if report.refused:
        sys.exit(1)
