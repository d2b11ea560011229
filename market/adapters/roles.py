"""Least privilege on PostgreSQL: the runtime role the service connects as.

The migration role (whoever runs `db upgrade`) owns the schema. The runtime role owns
nothing and is granted only what the service does: SELECT and INSERT on the append-only
tables (events, merkle_nodes, checkpoints, cosignatures), SELECT/INSERT/UPDATE on
ledger_head, the DML of the projection and identity tables, and the sequences. Without
ownership it cannot ALTER a table (so no DISABLE TRIGGER, no DROP TRIGGER), and without
superuser it cannot SET session_replication_role. Run it again after every `db upgrade`
that adds a table: it is idempotent and re-grants from scratch.
"""

from __future__ import annotations

import re

from sqlalchemy import Engine, text
from sqlalchemy.engine import Connection

from market.adapters.db import is_sqlite
from market.adapters.tables import metadata

APPEND_ONLY = ("events", "merkle_nodes", "checkpoints", "cosignatures")
HEAD = "ledger_head"
NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class RoleError(Exception):
    pass


def _ident(conn: Connection, name: str) -> str:
    return str(conn.execute(text("SELECT quote_ident(:n)"), {"n": name}).scalar_one())


def create_runtime_role(engine: Engine, name: str, password: str | None) -> list[str]:
    """Create (or bring up to date) role `name`; returns the statements' summaries."""
    if is_sqlite(engine):
        raise RoleError("database roles exist on PostgreSQL only; SQLite has none")
    if not NAME.match(name):
        raise RoleError(f"{name!r} is not a plain role name (lowercase letters, digits, _)")
    done: list[str] = []
    with engine.begin() as conn:
        role = _ident(conn, name)
        me = conn.execute(text("SELECT current_user")).scalar_one()
        if name == me:
            raise RoleError("the runtime role must not be the role that owns the schema")
        exists = conn.execute(
            text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}
        ).first()
        attrs = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT"
        verb = "ALTER" if exists else "CREATE"
        conn.execute(text(f"{verb} ROLE {role} {attrs}"))
        done.append(f"{verb.lower()}d role {name} ({attrs.lower()})")
        if password is not None:
            literal = conn.execute(text("SELECT quote_literal(:p)"), {"p": password}).scalar_one()
            conn.execute(text(f"ALTER ROLE {role} PASSWORD {literal}"))
            done.append("set its password")
        owned = conn.execute(
            text(
                "SELECT count(*) FROM pg_class WHERE relowner = (SELECT oid FROM pg_roles "
                "WHERE rolname = :n)"
            ),
            {"n": name},
        ).scalar_one()
        if owned:
            raise RoleError(f"role {name} owns {owned} relations; a runtime role owns nothing")
        database = _ident(conn, conn.execute(text("SELECT current_database()")).scalar_one())
        schema = "public"
        for stmt in (
            f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}",
            f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role}",
            f"REVOKE CREATE ON SCHEMA {schema} FROM {role}",
            f"GRANT CONNECT ON DATABASE {database} TO {role}",
            f"GRANT USAGE ON SCHEMA {schema} TO {role}",
            f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
            f"GRANT SELECT ON alembic_version TO {role}",
        ):
            conn.execute(text(stmt))
        for table in metadata.sorted_tables:
            if table.name in APPEND_ONLY:
                rights = "SELECT, INSERT"
            elif table.name == HEAD:
                rights = "SELECT, INSERT, UPDATE"
            else:
                rights = "SELECT, INSERT, UPDATE, DELETE"
            conn.execute(text(f"GRANT {rights} ON {_ident(conn, table.name)} TO {role}"))
            done.append(f"{table.name}: {rights}")
    return done
