"""backup while writes go on, restore into a fresh database, and the copy verifies against
the checkpoints signed before it (SQLite backup API; pg_dump/pg_restore)."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from market import create_app
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party
from tests.conftest import PG_URL
from tests.helpers import events
from tests.trust_world import build

pytestmark = pytest.mark.storage


@pytest.fixture
def fresh_url(database_url: str, tmp_path: Path) -> Iterator[str]:
    """An empty database of the same kind: a new SQLite file, or a new PostgreSQL database."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.db'}"
        return
    name = f"market_restore_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(database_url).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def _writer(engine: Any, stop: threading.Event, written: list[int]) -> None:
    i = 0
    while not stop.is_set():
        new = NewParty(f"Busy {i}", f"bz-{uuid.uuid4().hex[:8]}", "llc", ["CBT"])
        run(engine, lambda uow, n=new: register_party(uow, SYSTEM, n))
        i += 1
        written.append(i)


def test_a_backup_taken_while_writing_restores_and_verifies(
    app: Any, client: Any, fresh_url: str, tmp_path: Path
) -> None:
    engine = app.extensions["market.engine"]
    build(client, engine)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["checkpoint"]).exit_code == 0
    stop, written = threading.Event(), []
    thread = threading.Thread(target=_writer, args=(engine, stop, written))
    thread.start()
    try:
        while len(written) < 3:
            stop.wait(0.01)
        target = tmp_path / "market.backup"
        result = runner.invoke(args=["backup", str(target)])
        while len(written) < 6:  # and writes went on after it
            stop.wait(0.01)
    finally:
        stop.set()
        thread.join()
    assert result.exit_code == 0, result.output
    again = runner.invoke(args=["backup", str(target)])
    assert again.exit_code != 0 and "never overwrites" in again.output

    restored = create_app({"DATABASE_URL": fresh_url, "TESTING": True, "SECRET_KEY": "t"})
    restored.instance_path = app.instance_path  # the same key and CHECKPOINT_DIR
    r_runner = restored.test_cli_runner()
    done = r_runner.invoke(args=["restore", str(target)])
    assert done.exit_code == 0, done.output
    r_engine = restored.extensions["market.engine"]
    copied = events(r_engine)
    assert 0 < copied < events(engine)
    verify = r_runner.invoke(args=["verify"])
    assert verify.exit_code == 0, verify.output
    assert "checkpoint copies (files and stored) agree" in verify.output
    # A second restore into the now full database is refused.
    twice = r_runner.invoke(args=["restore", str(target)])
    assert twice.exit_code != 0 and "not empty" in twice.output
    r_engine.dispose()


def test_restore_refuses_what_is_not_a_backup(app: Any, fresh_url: str, tmp_path: Path) -> None:
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"not a database at all" * 100)
    restored = create_app({"DATABASE_URL": fresh_url, "TESTING": True, "SECRET_KEY": "t"})
    result = restored.test_cli_runner().invoke(args=["restore", str(junk)])
    assert result.exit_code != 0 and "Error" in result.output
    missing = restored.test_cli_runner().invoke(args=["restore", str(tmp_path / "none")])
    assert missing.exit_code != 0 and "is not a file" in missing.output
    restored.extensions["market.engine"].dispose()
