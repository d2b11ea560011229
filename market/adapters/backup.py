"""A consistent copy of the database while it serves, and its restore into an empty one.

SQLite: the online backup API (`sqlite3.Connection.backup`), which copies one snapshot
while writers go on (WAL). PostgreSQL: `pg_dump --format=custom` (one snapshot, without
blocking writers) and `pg_restore` in a single transaction, without owners and grants:
the restoring role (the migration role) owns what it restores; run
`db create-runtime-role` and `db create-signer-role` on the restored database afterwards.
A backup file is made 0600 before anything is written to it.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import URL, make_url

from market.adapters.db import create_private, is_sqlite

PG_BIN = Path("/usr/lib/postgresql/15/bin")


class BackupError(Exception):
    pass


def _tool(name: str) -> str:
    found = shutil.which(name) or (str(PG_BIN / name) if (PG_BIN / name).exists() else None)
    if found is None:
        raise BackupError(f"{name} is not installed (PATH or {PG_BIN})")
    return found


def _pg_env(url: URL) -> dict[str, str]:
    """libpq settings from the URL, the password in the environment, not on a command line."""
    env = dict(os.environ)
    for key, value in (
        ("PGHOST", url.host),
        ("PGPORT", url.port),
        ("PGUSER", url.username),
        ("PGPASSWORD", url.password),
        ("PGDATABASE", url.database),
    ):
        if value is not None:
            env[key] = str(value)
    return env


def _run(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(args[0]).name} failed: {done.stderr.strip()[-2000:]}")


def _sqlite_path(engine: Engine) -> Path:
    database = make_url(str(engine.url)).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(database)


def _claim(target: Path) -> None:
    """The backup's file, made here empty with mode 0600 (it holds every user's password
    hash and the whole ledger); an existing file is never overwritten."""
    try:
        os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        raise BackupError(f"{target} exists; a backup never overwrites a file") from None
    except OSError as e:
        raise BackupError(f"{target} cannot be created: {e}") from e


def backup(engine: Engine, target: Path) -> None:
    _claim(target)
    try:
        _copy(engine, target)
    except BaseException:
        target.unlink(missing_ok=True)
        raise


def _copy(engine: Engine, target: Path) -> None:
    if is_sqlite(engine):
        src = sqlite3.connect(_sqlite_path(engine))
        dst = sqlite3.connect(target)
        try:
            with dst:
                src.backup(dst)
        finally:
            dst.close()
            src.close()
        return
    _run(
        [_tool("pg_dump"), "--format=custom", "--no-password", f"--file={target}"],
        _pg_env(engine.url),
    )


def _user_tables(engine: Engine) -> int:
    sql = (
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        if is_sqlite(engine)
        else "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
    )
    with engine.connect() as conn:
        count = int(conn.execute(text(sql)).scalar_one())
        conn.rollback()
    return count


def restore(engine: Engine, source: Path) -> None:
    """Into an empty database only (no tables): a restore never merges or overwrites."""
    if not source.is_file():
        raise BackupError(f"{source} is not a file")
    if _user_tables(engine):
        raise BackupError("the target database is not empty; restore only into an empty one")
    if is_sqlite(engine):
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as e:
            src.close()
            raise BackupError(f"{source} is not a SQLite database: {e}") from e
        if "events" not in tables:
            src.close()
            raise BackupError(f"{source} holds no ledger (no events table)")
        engine.dispose()
        create_private(str(_sqlite_path(engine)))
        dst = sqlite3.connect(_sqlite_path(engine))
        try:
            with dst:
                src.backup(dst)
        finally:
            dst.close()
            src.close()
        return
    _run(
        [
            _tool("pg_restore"),
            "--no-password",
            "--single-transaction",
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            f"--dbname={engine.url.database}",
            str(source),
        ],
        _pg_env(engine.url),
    )
