"""Migrations go up, down to base and up again, and match the models exactly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect

from market.adapters.migrate import current, downgrade, upgrade
from market.adapters.tables import metadata


def test_upgrade_downgrade_to_base_and_upgrade_again(engine: Engine) -> None:
    assert current(engine) is not None
    downgrade(engine, "base")
    assert current(engine) is None
    assert "events" not in inspect(engine).get_table_names()
    upgrade(engine)
    assert "events" in inspect(engine).get_table_names()
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diff == []


def test_the_models_match_the_migrations(engine: Engine) -> None:
    with engine.connect() as conn:
        diff = compare_metadata(
            MigrationContext.configure(conn, opts={"compare_type": True}), metadata
        )
    assert diff == []
