"""flask users create ..."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from market.domain.errors import DomainError
from market.services import identity


@click.group()
def users() -> None:
    """Manage users (authority, participant, auditor)."""


@users.command("create")
@click.option("--email", required=True)
@click.option("--role", required=True, type=click.Choice(["authority", "participant", "auditor"]))
@click.option("--password", required=True)
@click.option("--party", "party_id", default=None, help="The party a participant acts for.")
@with_appcontext
def create(email: str, role: str, password: str, party_id: str | None) -> None:
    try:
        user = identity.create_user(
            current_app.extensions["market.engine"], email, role, password, party_id
        )
    except DomainError as e:
        raise click.ClickException(e.message) from e
    click.echo(f"created {user['role']} {user['email']} ({user['id']})")
