"""Migrations go up, down to base and up again, and match the models exactly."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, inspect
from sqlalchemy.exc import IntegrityError

from market.adapters.migrate import current, downgrade, upgrade
from market.adapters.tables import metadata
from market.domain.rulesets import get_ruleset
from market.services import demo
from tests.helpers import projection_rows, replay_equals_live_and_verifies


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


def test_0005_counts_the_children_replay_would(engine: Engine) -> None:
    """A ledger written before 0005 gets children_count from its certificates' parents, the
    same figures replay gives, and the derived numbers they continue from."""
    demo.seed(engine, get_ruleset())
    live = projection_rows(engine)["certificates"]
    counted = {r["id"]: r["children_count"] for r in live}
    parents = [r["parent_id"] for r in live if r["parent_id"] is not None]
    assert counted == {r["id"]: parents.count(r["id"]) for r in live}
    assert max(counted.values()) >= 2
    downgrade(engine, "0004")
    upgrade(engine)
    assert projection_rows(engine)["certificates"] == live
    replay_equals_live_and_verifies(engine)


def test_0026_keeps_every_request_trace_and_drops_the_stream_index(engine: Engine) -> None:
    """0026 rebuilds request_traces on SQLite as one B-tree (WITHOUT ROWID) and drops
    ix_events_stream; its downgrade rebuilds the rowid table. No trace is lost either way,
    and the primary key still refuses a repeated (seq, request_id)."""
    demo.seed(engine, get_ruleset())
    traces = "SELECT seq, request_id FROM request_traces ORDER BY seq, request_id"
    with engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO request_traces VALUES (1, 'r-one'), (2, 'r-two')")
        kept = conn.exec_driver_sql(traces).all()
    sqlite = engine.dialect.name == "sqlite"

    def one_btree() -> bool:
        with engine.connect() as conn:  # the table is its key's B-tree: no rowid
            listed = conn.exec_driver_sql("PRAGMA table_list(request_traces)").one()
            return bool(listed.wr)

    def stream_indexed() -> bool:
        return "ix_events_stream" in {ix["name"] for ix in inspect(engine).get_indexes("events")}

    assert not stream_indexed() and (one_btree() if sqlite else True)
    downgrade(engine, "0025")
    assert stream_indexed() and not (sqlite and one_btree())
    with engine.connect() as conn:
        assert conn.exec_driver_sql(traces).all() == kept
    upgrade(engine)
    assert not stream_indexed() and (one_btree() if sqlite else True)
    with engine.begin() as conn:
        assert conn.exec_driver_sql(traces).all() == kept
        with pytest.raises(IntegrityError):
            conn.exec_driver_sql("INSERT INTO request_traces VALUES (1, 'r-one')")
    replay_equals_live_and_verifies(engine)
