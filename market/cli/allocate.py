"""`allocate`: the TECH fiscal-year allocation as pure computation (PRODUCT.md section 5).

Reads the applications from a JSON file, prints the allocation as JSON and writes nothing.
It uses only click, json and the domain, so it works without a database.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

import click

from market.domain.errors import DomainError
from market.domain.rules.tech_allocation import Applicant
from market.domain.rules.tech_allocation import allocate as allocate_fy
from market.domain.rulesets import get_ruleset


def _fail(message: str) -> click.ClickException:
    return click.ClickException(f"invalid --input: {message}")


def _applicant(index: int, raw: object) -> Applicant:
    where = f"applications[{index}]"
    if not isinstance(raw, dict):
        raise _fail(f"{where} must be an object")
    missing = [
        k for k in ("id", "request_cents", "in_innovation_zone", "received_at") if k not in raw
    ]
    if missing:
        raise _fail(f"{where} lacks {', '.join(missing)}")
    ident, request, zone, received = (
        raw["id"],
        raw["request_cents"],
        raw["in_innovation_zone"],
        raw["received_at"],
    )
    if not isinstance(ident, str) or not ident:
        raise _fail(f"{where}.id must be a non-empty string")
    if isinstance(request, bool) or not isinstance(request, int) or request < 0:
        raise _fail(f"{where}.request_cents must be a non-negative integer of cents")
    if not isinstance(zone, bool):
        raise _fail(f"{where}.in_innovation_zone must be true or false")
    if not isinstance(received, str):
        raise _fail(f"{where}.received_at must be an ISO 8601 string")
    return Applicant(ident, request, zone, received)


def _read(stream: TextIO) -> dict[str, Any]:
    try:
        document = json.load(stream)
    except json.JSONDecodeError as exc:
        raise _fail(f"not valid JSON ({exc})") from None
    if not isinstance(document, dict) or not isinstance(document.get("applications"), list):
        raise _fail('expected an object with an "applications" list')
    return document


@click.command("allocate")
@click.option("--fiscal-year", "fiscal_year", type=int, required=True, help="State FY, e.g. 2013.")
@click.option(
    "--input",
    "input_file",
    type=click.File("r"),
    required=True,
    help="JSON file of applications (PRODUCT.md section 5).",
)
@click.option(
    "--ruleset",
    "ruleset_name",
    default=None,
    help='Ruleset name; overrides the file\'s "ruleset" (default A1178).',
)
def allocate(fiscal_year: int, input_file: TextIO, ruleset_name: str | None) -> None:
    """Print the TECH allocation for one fiscal year as JSON; writes nothing."""
    document = _read(input_file)
    source = "--ruleset" if ruleset_name else 'the input\'s "ruleset"'
    try:
        ruleset = get_ruleset(str(ruleset_name or document.get("ruleset") or "A1178"))
    except DomainError as exc:
        raise click.ClickException(f"{exc.message} (from {source})") from None
    applicants = [_applicant(i, raw) for i, raw in enumerate(document["applications"])]
    try:
        result = allocate_fy(applicants, ruleset)
    except DomainError as exc:
        raise _fail(exc.message) from None
    output = {
        "fiscal_year": fiscal_year,
        "triggered": result.triggered,
        "allocations": [{"id": a.id, "allocated_cents": result.amounts[a.id]} for a in applicants],
        "total_cents": result.total_cents,
    }
    click.echo(json.dumps(output, indent=2))
