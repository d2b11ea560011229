"""Making and dropping the PostgreSQL roles of adapters/roles.py for a test."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def make_role(owner_app: Any, command: str, prefix: str) -> tuple[str, str, str]:
    """Run `db <command> --name ... --password ...` as the owner; (name, url, output)."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    result = owner_app.test_cli_runner().invoke(
        args=["db", command, "--name", name, "--password", "pw-" + name]
    )
    assert result.exit_code == 0, result.output
    owner_url = owner_app.config["DATABASE_URL"]
    url = make_url(owner_url).set(username=name, password="pw-" + name)
    return name, url.render_as_string(hide_password=False), result.output


def drop_role(owner_url: str, name: str) -> None:
    admin = create_engine(owner_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP OWNED BY "{name}"'))
        conn.execute(text(f'DROP ROLE "{name}"'))
    admin.dispose()
