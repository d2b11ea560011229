"""Fixtures: every storage test runs on SQLite and on PostgreSQL.

PostgreSQL: one fresh database per test run (per xdist worker), migrated once; each test
starts from empty tables. SQLite: one migrated template file per run, copied per test.
Under CI=true an unreachable PostgreSQL fails the run instead of skipping.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault(
    "MARKET_ARGON2_FAST", "1"
)  # before market.services.identity.identity is imported

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.adapters.tables import metadata

# The suite runs in the bill's era (PRODUCT.md 8.4): A1178's credits are 2012-2015 ones,
# and a credit nobody can use any more is not sold, so "today" is a business date then.
ERA_TODAY = "2014-09-01"

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
IN_CI = os.environ.get("CI", "").lower() == "true"
GENESIS = "0" * 64


def _admin_engine() -> Engine:
    return create_engine(PG_URL, isolation_level="AUTOCOMMIT")


@pytest.fixture(scope="session")
def pg_database_url() -> Iterator[str]:
    admin = _admin_engine()
    try:
        with admin.connect() as conn:
            conn.execute(text("select 1"))
    except Exception as exc:
        admin.dispose()
        message = f"PostgreSQL at {PG_URL} is unreachable ({type(exc).__name__}: {exc})"
        if IN_CI:
            pytest.fail(message + "; CI requires it", pytrace=False)
        pytest.skip(message + "; set TEST_DATABASE_URL or start PostgreSQL")
    name = f"market_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    engine = make_engine(url)
    upgrade(engine)
    engine.dispose()
    yield url
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "market.db"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return path


def reset_postgres(url: str) -> None:
    engine = create_engine(url)
    tables = ", ".join(t.name for t in metadata.sorted_tables)
    with engine.begin() as conn:
        # Replica mode keeps the append-only triggers from firing for this cleanup only.
        conn.execute(text("SET LOCAL session_replication_role = replica"))
        conn.execute(text(f"TRUNCATE {tables} CASCADE"))
        conn.execute(text(f"INSERT INTO ledger_head (id, seq, hash) VALUES (1, 0, '{GENESIS}')"))
        conn.execute(text("INSERT INTO auth_epoch (id, n) VALUES (1, 0)"))
        conn.execute(text("INSERT INTO party_epoch (id, n) VALUES (1, 0)"))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> str:
    if request.param == "sqlite":
        target = tmp_path / "market.db"
        shutil.copy(sqlite_template, target)
        return f"sqlite:///{target}"
    url: str = request.getfixturevalue("pg_database_url")
    reset_postgres(url)
    return url


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    eng = make_engine(database_url)
    yield eng
    eng.dispose()


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    from market import create_app

    application = create_app(
        {
            "DATABASE_URL": database_url,
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": True,
            "MARKET_TODAY": ERA_TODAY,
        }
    )
    application.instance_path = str(tmp_path / "instance")
    yield application
    application.extensions["market.engine"].dispose()


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture(autouse=True)
def market_today() -> Iterator[Any]:
    """The business date (MARKET_TODAY, PRODUCT.md 8.4) is ERA_TODAY in every test, also in
    those that call the services without an app; a test may call this fixture with another
    ISO date (or None: the real New York date)."""
    from market.services.kernel import clock

    clock.configure(ERA_TODAY)
    yield clock.configure
    clock.configure(ERA_TODAY)
