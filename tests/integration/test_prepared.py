"""Prepared statements (market.adapters.prepared) give what SQLAlchemy gives, on SQLite and
PostgreSQL: the same rows (JSON, booleans, NULLs), row counts, errors and transactions."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, bindparam, event, select, text
from sqlalchemy.exc import IntegrityError, StatementError

from market.adapters.db import make_engine, violates
from market.adapters.prepared import (
    Pending,
    Prepared,
    _batch,
    insert_row,
    insert_statement,
    run_all,
)
from market.adapters.tables import Party, User

parties_t = Party.__table__  # type: ignore[attr-defined]
users_t = User.__table__  # type: ignore[attr-defined]

BY_ID = select(parties_t).where(parties_t.c.id == bindparam("id"))
ALL = select(parties_t).order_by(parties_t.c.id)
RENAME = parties_t.update().where(parties_t.c.id == bindparam("key")).values(name=bindparam("name"))


def _party(i: int, **changes: Any) -> dict[str, Any]:
    return {
        "id": f"pty_{i}",
        "name": f"Party {i} é",
        "tax_id": f"T-{i}",
        "entity_type": "llc",
        "tax_types": ["CBT", "GIT"][: i % 3],
        "in_innovation_zone": bool(i % 2),
        "us_employees": None if i % 2 else i * 10,
        "nj_full_time_employees": None,
        "formed_on": None,
        "operating_income_cents_by_year": {"2019": i, "2020": -i} if i % 2 else {},
        "created_seq": i,
    } | changes


def _seed(engine: Engine, n: int = 3) -> None:
    with engine.begin() as conn:
        for i in range(1, n + 1):
            insert_row(conn, parties_t, _party(i))


def test_rows_are_what_sqlalchemy_reads(engine: Engine) -> None:
    _seed(engine)
    with engine.connect() as conn:
        expected = [dict(r) for r in conn.execute(ALL).mappings()]
        assert Prepared(ALL).rows(conn) == expected
        for row in expected:
            assert Prepared(BY_ID).first(conn, {"id": row["id"]}) == row
        assert Prepared(BY_ID).first(conn, {"id": "nobody"}) is None
        assert (
            Prepared(select(parties_t.c.name).where(parties_t.c.id == "pty_2")).scalar(conn)
            == conn.execute(select(parties_t.c.name).where(parties_t.c.id == "pty_2")).scalar()
        )
    assert isinstance(expected[0]["in_innovation_zone"], bool)
    assert expected[0]["operating_income_cents_by_year"] == {"2019": 1, "2020": -1}
    assert expected[0]["tax_types"] == ["CBT"]


def test_a_textual_statement_is_keyed_by_its_column_names(engine: Engine) -> None:
    _seed(engine)
    with engine.connect() as conn:
        found = Prepared(text("SELECT id AS key, created_seq FROM parties ORDER BY id")).rows(conn)
    assert found == [{"key": f"pty_{i}", "created_seq": i} for i in (1, 2, 3)]


def test_writes_count_rows_and_stay_inside_the_transaction(engine: Engine) -> None:
    _seed(engine)
    with engine.connect() as conn:
        assert Prepared(RENAME).run(conn, {"key": "pty_1", "name": "Renamed"}) == 1
        assert Prepared(RENAME).run(conn, {"key": "nobody", "name": "x"}) == 0
        assert conn.in_transaction()
        conn.rollback()
    with engine.connect() as conn:
        assert Prepared(BY_ID).first(conn, {"id": "pty_1"})["name"] == "Party 1 é"  # type: ignore[index]
        Prepared(RENAME).run(conn, {"key": "pty_1", "name": "Renamed"})
        conn.commit()
    with engine.connect() as conn:
        assert conn.execute(select(parties_t.c.name).where(parties_t.c.id == "pty_1")).scalar() == (
            "Renamed"
        )


def test_errors_are_sqlalchemys_and_leave_the_connection_usable(engine: Engine) -> None:
    _seed(engine, 1)
    with engine.connect() as conn:
        with pytest.raises(IntegrityError):
            insert_row(conn, parties_t, _party(1))
        conn.rollback()
        with pytest.raises(StatementError):
            Prepared(BY_ID).first(conn, {})  # a required parameter is missing
        conn.rollback()
        assert Prepared(BY_ID).first(conn, {"id": "pty_1"}) is not None


def test_logged_or_instrumented_statements_go_through_sqlalchemy(database_url: str) -> None:
    engine = make_engine(database_url)
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    try:
        _seed(engine, 1)
        with engine.connect() as conn:
            assert Prepared(BY_ID).first(conn, {"id": "pty_1"}) is not None
        assert Prepared(select(users_t).where(users_t.c.id == "u")).first_autocommit(engine) is None
        assert sum("FROM parties" in s for s in seen) == 1
        assert sum("FROM users" in s for s in seen) == 1
        assert sum(s.startswith("INSERT INTO parties") for s in seen) == 1
    finally:
        engine.dispose()


def test_an_autocommit_read_leaves_the_pooled_connection_as_it_found_it(engine: Engine) -> None:
    _seed(engine, 2)
    for _ in range(3):
        assert Prepared(BY_ID).first_autocommit(engine, {"id": "pty_2"})["id"] == "pty_2"  # type: ignore[index]
        assert Prepared(BY_ID).first_autocommit(engine, {"id": "x"}) is None
    with engine.connect() as conn:
        raw: Any = conn.connection.dbapi_connection
        assert getattr(raw, "autocommit", False) in (False, -1)
        Prepared(RENAME).run(conn, {"key": "pty_2", "name": "Not kept"})
        conn.rollback()
    assert Prepared(BY_ID).first_autocommit(engine, {"id": "pty_2"})["name"] == "Party 2 é"  # type: ignore[index]


def test_writes_run_together_all_or_nothing(engine: Engine) -> None:
    """`run_all`: on PostgreSQL one statement (a data-modifying WITH per write but the last),
    elsewhere one by one; either way every row is written, and a failing part writes none."""
    _seed(engine, 1)
    pending: Pending = [
        (insert_statement(parties_t, tuple(_party(2))), _party(2)),
        (Prepared(RENAME), {"key": "pty_1", "name": "Renamed"}),
        (insert_statement(parties_t, tuple(_party(3))), _party(3)),
    ]
    with engine.connect() as conn:
        batch = _batch(conn, pending)
        if engine.dialect.name == "postgresql":
            assert batch is not None and batch.sql.startswith("WITH w0 AS (INSERT INTO parties")
            assert "%(" not in batch.sql and "$1::" in batch.sql and "$2::" in batch.sql
        else:
            assert batch is None
        run_all(conn, pending)
        conn.commit()
    with engine.connect() as conn:
        names = dict(conn.execute(select(parties_t.c.id, parties_t.c.name)).tuples().all())
    assert names == {"pty_1": "Renamed", "pty_2": "Party 2 é", "pty_3": "Party 3 é"}

    failing: Pending = [
        (insert_statement(parties_t, tuple(_party(4))), _party(4)),
        (Prepared(RENAME), {"key": "pty_2", "name": "Not kept"}),
        (insert_statement(parties_t, tuple(_party(1))), _party(1)),  # pty_1 exists
    ]
    with engine.connect() as conn:
        with pytest.raises(IntegrityError):
            run_all(conn, failing)
        conn.rollback()
        assert Prepared(BY_ID).first(conn, {"id": "pty_4"}) is None
        assert Prepared(BY_ID).first(conn, {"id": "pty_2"})["name"] == "Party 2 é"  # type: ignore[index]


def test_violates_names_the_table_of_the_broken_constraint(engine: Engine) -> None:
    _seed(engine, 1)
    with engine.connect() as conn:
        with pytest.raises(IntegrityError) as caught:
            insert_row(conn, parties_t, _party(1))
        conn.rollback()
    assert violates(caught.value, "parties")
    assert not violates(caught.value, "users")
