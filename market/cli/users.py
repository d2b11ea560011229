"""flask users create ...

The password comes from a hidden prompt (typed twice) or, for scripts, from standard input
(`--password-stdin`, one line). `--password P` still works, because PRODUCT.md section 5
names it, but it puts the password in the shell history and in `ps` for every user of the
machine to read: it prints a warning, and the README prefers the other two.
"""

from __future__ import annotations

import sys

import click
from flask import current_app
from flask.cli import with_appcontext

from market.domain.errors import DomainError
from market.services.identity import identity


@click.group()
def users() -> None:
    """Manage users (authority, participant, auditor)."""


def _read_password(password: str | None, from_stdin: bool) -> str:
    if password is not None and from_stdin:
        raise click.UsageError("Give --password or --password-stdin, not both.")
    if password is not None:
        click.echo(
            "warning: --password exposes the password to other users of this machine; "
            "prefer the prompt or --password-stdin.",
            err=True,
        )
        return password
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(click.prompt("Password", hide_input=True, confirmation_prompt=True))


@users.command("create")
@click.option("--email", required=True)
@click.option("--role", required=True, type=click.Choice(["authority", "participant", "auditor"]))
@click.option(
    "--password", default=None, help="Discouraged: prefer the prompt or --password-stdin."
)
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--party", "party_id", default=None, help="The party a participant acts for.")
@with_appcontext
def create(
    email: str, role: str, password: str | None, password_stdin: bool, party_id: str | None
) -> None:
    """Create a user; the password is asked for (hidden) unless --password-stdin."""
    secret = _read_password(password, password_stdin)
    try:
        user = identity.create_user(
            current_app.extensions["market.engine"], email, role, secret, party_id
        )
    except DomainError as e:
        raise click.ClickException(e.message) from e
    click.echo(f"created {user['role']} {user['email']} ({user['id']})")
