"""checkpoint, backup, restore, db create-runtime-role and create-signer-role; the
checkpoint part of verify and replay (PRODUCT.md 8.1)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import Engine

from market.adapters import backup, roles
from market.adapters.db import make_engine
from market.adapters.signing import KeyFileError, load_signer
from market.domain.errors import DomainError
from market.services.trust import checkpoints, key_rotation, signer, trust_verify
from market.services.trust.checkpoints import TrustSettings


def engine() -> Engine:
    return current_app.extensions["market.engine"]  # type: ignore[no-any-return]


def signer_engine() -> Engine:
    """SIGNER_DATABASE_URL's connection: the only role that may write the trust tables."""
    return current_app.extensions["market.signer_engine"]  # type: ignore[no-any-return]


def owner_engine() -> Engine:
    """The schema owner's connection (MIGRATION_DATABASE_URL) when one is configured, for
    what the runtime role may not do: migrations, granting, restoring, backing up whole."""
    url = current_app.config.get("MIGRATION_DATABASE_URL")
    if not url:
        return engine()
    found = current_app.extensions.get("market.owner_engine")
    if found is None:
        found = current_app.extensions["market.owner_engine"] = make_engine(url)
    return found


def settings() -> TrustSettings:
    return TrustSettings.from_config(current_app.config, current_app.instance_path)


@click.command("checkpoint")
@click.option("--json", "as_json", is_flag=True, help="Print the checkpoint as JSON.")
@with_appcontext
def checkpoint(as_json: bool) -> None:
    """Sign the ledger's Merkle tree now and write the checkpoint into CHECKPOINT_DIR."""
    try:
        made, created = signer.make_checkpoint(signer_engine(), settings())
    except DomainError as e:
        raise click.ClickException(f"{e.message} ({e.code})") from e
    if as_json:
        click.echo(json.dumps({**made, "created": created}))
    elif created:
        click.echo(f"checkpoint {made['tree_size']} root {made['root_hash']} key {made['key_id']}")
    else:
        click.echo(f"no new events: the latest checkpoint is {made['tree_size']}")


def check_against_checkpoints() -> trust_verify.CheckpointReport:
    """For verify and replay: the ledger against every checkpoint we signed."""
    try:
        return trust_verify.check_checkpoints(engine(), settings())
    except DomainError as e:
        report = trust_verify.CheckpointReport()
        report.problems.append(f"checkpoints not checked: {e.message}")
        return report


@click.command("rotate-key")
@click.option(
    "--new-key-file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The new Ed25519 key (made there, mode 0600, if it does not exist).",
)
@with_appcontext
def rotate_key(new_key_file: Path) -> None:
    """Publish a rotation statement signed by the current key and the new one into
    CHECKPOINT_DIR; then point SIGNING_KEY_FILE at the new key."""
    s = settings()
    try:
        made, _ = checkpoints.make_checkpoint(engine(), s)
        old = checkpoints.signer(s)
        new = load_signer(new_key_file, s.origin, create=True)
        path = key_rotation.publish(s.checkpoint_dir, s.origin, old, new, made["tree_size"])
    except (DomainError, KeyFileError, ValueError) as e:
        raise click.ClickException(str(getattr(e, "message", e))) from e
    click.echo(f"published {path}")
    click.echo(f"new verifier key: {new.verifier_key}")
    click.echo(f"now set SIGNING_KEY_FILE={new_key_file} (and TRUSTED_LOG_KEYS may stay as is)")


@click.command("create-runtime-role")
@click.option("--name", required=True, help="The role the service will connect as.")
@click.option("--password", default=None, help="Its password (omit for peer/cert auth).")
@with_appcontext
def create_runtime_role(name: str, password: str | None) -> None:
    """PostgreSQL: a role that owns nothing, may only SELECT/INSERT on events and only
    SELECT on the trust tables (run as the migration role, again after every upgrade)."""
    try:
        done = roles.create_runtime_role(owner_engine(), name, password)
    except roles.RoleError as e:
        raise click.ClickException(str(e)) from e
    for line in done:
        click.echo(line)


@click.command("create-signer-role")
@click.option("--name", required=True, help="The role checkpoints are made as.")
@click.option("--password", default=None, help="Its password (omit for peer/cert auth).")
@with_appcontext
def create_signer_role(name: str, password: str | None) -> None:
    """PostgreSQL: a role that may read events and add to merkle_nodes and checkpoints,
    nothing else (SIGNER_DATABASE_URL; run as the migration role, again after upgrades)."""
    try:
        done = roles.create_signer_role(owner_engine(), name, password)
    except roles.RoleError as e:
        raise click.ClickException(str(e)) from e
    for line in done:
        click.echo(line)


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(file: Path) -> None:
    """A consistent copy of the database while it serves (SQLite backup API; pg_dump -Fc)."""
    try:
        backup.backup(owner_engine(), file)
    except backup.BackupError as e:
        raise click.ClickException(str(e)) from e
    click.echo(f"backed up to {file} ({file.stat().st_size} bytes)")


@click.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def restore_command(file: Path) -> None:
    """Restore FILE into this (empty) database; then run `verify`."""
    try:
        backup.restore(owner_engine(), file)
    except backup.BackupError as e:
        raise click.ClickException(str(e)) from e
    click.echo(f"restored {file}; now run: flask --app market verify")


def register(app: Flask) -> None:
    db = app.cli.commands["db"]  # the migrations group, registered first
    assert isinstance(db, click.Group)
    db.add_command(create_runtime_role)
    db.add_command(create_signer_role)
    for command in (checkpoint, rotate_key, backup_command, restore_command):
        app.cli.add_command(command)
