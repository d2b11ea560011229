"""Issue 23, item 4: what holds the ledger, the password hashes or a key is readable and
writable by the service's user only (0600), whatever the umask: the SQLite database and
its -wal and -shm files, backups, the token hash key."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from market.adapters.backup import backup, restore
from market.adapters.db import make_engine
from market.config import instance_secret_key, token_hash_key


@pytest.fixture(autouse=True)
def lax_umask() -> Iterator[None]:
    before = os.umask(0o022)  # the usual default: files 0644 unless made otherwise
    yield
    os.umask(before)


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_a_new_sqlite_database_and_its_wal_files_are_0600(tmp_path: Path) -> None:
    path = tmp_path / "market.db"
    engine = make_engine(f"sqlite:///{path}")
    assert not path.exists()  # nothing is touched before the first connection
    try:
        with engine.begin() as conn:
            conn.execute(text("CREATE TABLE t (x int)"))
            conn.execute(text("INSERT INTO t VALUES (1)"))
        with engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
            wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
            assert wal.exists() and shm.exists()
            assert (_mode(path), _mode(wal), _mode(shm)) == (0o600, 0o600, 0o600)
    finally:
        engine.dispose()


def test_an_existing_database_keeps_the_mode_it_has(tmp_path: Path) -> None:
    path = tmp_path / "market.db"
    path.touch(mode=0o640)
    path.chmod(0o640)
    engine = make_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    engine.dispose()
    assert _mode(path) == 0o640


@pytest.mark.storage
def test_a_backup_and_a_restored_sqlite_database_are_0600(engine: Engine, tmp_path: Path) -> None:
    target = tmp_path / "market.backup"
    backup(engine, target)
    assert target.stat().st_size > 0 and _mode(target) == 0o600
    if engine.dialect.name == "sqlite":
        restored = tmp_path / "restored.db"
        fresh = make_engine(f"sqlite:///{restored}")
        restore(fresh, target)
        fresh.dispose()
        assert _mode(restored) == 0o600


def test_a_failed_backup_leaves_no_file(tmp_path: Path) -> None:
    engine = make_engine("sqlite://")  # in memory: nothing to back up
    target = tmp_path / "market.backup"
    with pytest.raises(Exception, match="in-memory"):
        backup(engine, target)
    assert not target.exists()


def test_the_keys_made_in_the_instance_folder_are_0600(tmp_path: Path) -> None:
    key = token_hash_key(None, str(tmp_path))
    assert len(key) == 32 and token_hash_key(None, str(tmp_path)) == key
    assert _mode(tmp_path / "token_hash_key") == 0o600
    instance_secret_key(str(tmp_path))
    assert _mode(tmp_path / "secret_key") == 0o600


def test_a_configured_token_key_file_must_exist_and_hold_hex(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="cannot be used"):
        token_hash_key(str(tmp_path / "missing"), str(tmp_path))
    bad = tmp_path / "bad"
    bad.write_text("not hex")
    with pytest.raises(RuntimeError, match="cannot be used"):
        token_hash_key(str(bad), str(tmp_path))
    assert not (tmp_path / "token_hash_key").exists()  # never made beside a configured one
