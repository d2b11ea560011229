"""Least privilege on PostgreSQL: the runtime role the service connects as, and the signer
role that alone writes the trust layer.

The migration role (whoever runs `db upgrade`) owns the schema. The runtime role owns
nothing and is granted only what the service does: SELECT and INSERT on events,
SELECT/INSERT/UPDATE on ledger_head, the DML of the projection and identity tables, the
sequences, and SELECT only on the trust tables (SIGNER_TABLES). The signer role may read
the ledger (events, ledger_head) and add to the trust tables, nothing else: a credential
that serves requests cannot write a Merkle node or a checkpoint. Without ownership
neither can ALTER a table (so no DISABLE TRIGGER, no DROP TRIGGER), and without superuser
neither can SET session_replication_role. Run both again after every `db upgrade` that
adds a table: they are idempotent and re-grant from scratch. A trust table another
release adds is granted by the same rule once it exists.
"""

from __future__ import annotations

import re

from sqlalchemy import Engine, text
from sqlalchemy.engine import Connection

from market.adapters.db import is_sqlite
from market.adapters.tables import metadata

APPEND_ONLY = ("events",)
HEAD = "ledger_head"
# Moved forward by triggers only, never deleted; UPDATE also lets a write lock them FOR
# SHARE with the ledger head (market/adapters/eventstore.py).
EPOCHS = ("auth_epoch", "party_epoch")
# Written by the signer role only (SIGNER_DATABASE_URL); the runtime role reads them.
SIGNER_TABLES = ("merkle_nodes", "checkpoints", "cosignatures", "key_statements")
SIGNER_READS = ("events", HEAD)
NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
SCHEMA = "public"
ATTRS = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT"


class RoleError(Exception):
    pass


def _ident(conn: Connection, name: str) -> str:
    return str(conn.execute(text("SELECT quote_ident(:n)"), {"n": name}).scalar_one())


def _tables_present(conn: Connection) -> set[str]:
    sql = "SELECT tablename FROM pg_tables WHERE schemaname = :s"
    rows = conn.execute(text(sql), {"s": SCHEMA})
    return {str(r[0]) for r in rows}


def _prepare(conn: Connection, name: str, password: str | None, what: str) -> list[str]:
    """Create or alter the role with no privileges beyond LOGIN; revoke what it had."""
    role = _ident(conn, name)
    if name == conn.execute(text("SELECT current_user")).scalar_one():
        raise RoleError(f"the {what} role must not be the role that owns the schema")
    exists = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).first()
    verb = "ALTER" if exists else "CREATE"
    conn.execute(text(f"{verb} ROLE {role} {ATTRS}"))
    done = [f"{verb.lower()}d role {name} ({ATTRS.lower()})"]
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
        raise RoleError(f"role {name} owns {owned} relations; a {what} role owns nothing")
    database = _ident(conn, conn.execute(text("SELECT current_database()")).scalar_one())
    for stmt in (
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {SCHEMA} FROM {role}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {SCHEMA} FROM {role}",
        f"REVOKE CREATE ON SCHEMA {SCHEMA} FROM {role}",
        f"GRANT CONNECT ON DATABASE {database} TO {role}",
        f"GRANT USAGE ON SCHEMA {SCHEMA} TO {role}",
    ):
        conn.execute(text(stmt))
    return done


def _check(engine: Engine, name: str) -> None:
    if is_sqlite(engine):
        raise RoleError("database roles exist on PostgreSQL only; SQLite has none")
    if not NAME.match(name):
        raise RoleError(f"{name!r} is not a plain role name (lowercase letters, digits, _)")


def runtime_rights(table: str) -> str:
    if table in APPEND_ONLY:
        return "SELECT, INSERT"
    if table in SIGNER_TABLES:
        return "SELECT"
    if table == HEAD:
        return "SELECT, INSERT, UPDATE"
    if table in EPOCHS:
        return "SELECT, UPDATE"
    return "SELECT, INSERT, UPDATE, DELETE"


def create_runtime_role(engine: Engine, name: str, password: str | None) -> list[str]:
    """Create (or bring up to date) role `name`; returns the statements' summaries."""
    _check(engine, name)
    with engine.begin() as conn:
        done = _prepare(conn, name, password, "runtime")
        role = _ident(conn, name)
        conn.execute(text(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {SCHEMA} TO {role}"))
        conn.execute(text(f"GRANT SELECT ON alembic_version TO {role}"))
        present = _tables_present(conn)
        names = [t.name for t in metadata.sorted_tables]
        names += [t for t in SIGNER_TABLES if t not in names]
        for table in names:
            if table not in present:
                continue
            rights = runtime_rights(table)
            conn.execute(text(f"GRANT {rights} ON {_ident(conn, table)} TO {role}"))
            done.append(f"{table}: {rights}")
    return done


def _sequences_of(conn: Connection, table: str) -> list[str]:
    """The sequences a serial or identity column of `table` draws from."""
    rows = conn.execute(
        text(
            "SELECT s.relname FROM pg_class s JOIN pg_depend d ON d.objid = s.oid "
            "JOIN pg_class t ON t.oid = d.refobjid JOIN pg_namespace n ON n.oid = t.relnamespace "
            "WHERE s.relkind = 'S' AND t.relname = :t AND n.nspname = :s"
        ),
        {"t": table, "s": SCHEMA},
    )
    return [str(r[0]) for r in rows]


def create_signer_role(engine: Engine, name: str, password: str | None) -> list[str]:
    """The role checkpoints are made as (SIGNER_DATABASE_URL): reads the ledger, adds to
    the trust tables; no UPDATE or DELETE anywhere, no other table at all."""
    _check(engine, name)
    with engine.begin() as conn:
        done = _prepare(conn, name, password, "signer")
        role = _ident(conn, name)
        present = _tables_present(conn)
        for table in SIGNER_READS:
            conn.execute(text(f"GRANT SELECT ON {_ident(conn, table)} TO {role}"))
            done.append(f"{table}: SELECT")
        for table in SIGNER_TABLES:
            if table not in present:
                done.append(f"{table}: not there yet (run this again after db upgrade)")
                continue
            conn.execute(text(f"GRANT SELECT, INSERT ON {_ident(conn, table)} TO {role}"))
            done.append(f"{table}: SELECT, INSERT")
            for sequence in _sequences_of(conn, table):
                conn.execute(text(f"GRANT USAGE ON SEQUENCE {_ident(conn, sequence)} TO {role}"))
                done.append(f"{sequence}: USAGE")
    return done
