"""PostgreSQL writes a unit of work's tail in one statement (adapters/append_statement.py):
its events, the rows it kept for commit and its request's traces go in, and the head
moves, in one round trip; a unique key another unit holds fails that unit alone; what
does not fit in one statement goes in as before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Column, Engine, MetaData, String, Table, TypeDecorator, text
from sqlalchemy.exc import IntegrityError
from structlog.contextvars import bound_contextvars

from market.adapters import append_statement
from market.adapters.db import make_engine
from market.adapters.eventstore import GENESIS_HASH, head, iter_events
from market.adapters.tables import IdempotencyKey
from market.services.kernel.actor import SYSTEM
from market.services.kernel.uow import UnitOfWork
from market.services.kernel.write_batch import WriteBatch
from market.services.parties.parties import NewParty, register_party
from market.services.trust import ledger
from tests.conftest import reset_postgres
from tests.helpers import sent_statements

keys_t = IdempotencyKey.__table__  # type: ignore[attr-defined]


@pytest.fixture
def pg(pg_database_url: str) -> Iterator[Engine]:
    reset_postgres(pg_database_url)
    engine = make_engine(pg_database_url)
    yield engine
    engine.dispose()


def _party(n: int) -> NewParty:
    return NewParty(name=f"P{n}", tax_id=f"T-{n}", entity_type="llc", tax_types=["GIT"])


def _key(key: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "scope": "test",
        "key": key,
        "request_hash": "0" * 64,
        "status_code": 201,
        "response_body": body,
        "created_at": "2014-09-01T00:00:00.000000Z",
    }


def _chain_ok(engine: Engine) -> int:
    with engine.connect() as conn:
        prev = GENESIS_HASH
        for e in iter_events(conn):
            assert e.prev_hash == prev
            prev = e.hash
        seq, last = head(conn)
    assert prev == last
    return seq


def test_a_units_events_key_and_traces_go_in_with_the_head_in_one_statement(pg: Engine) -> None:
    body = {"id": "p-1", "note": "50% off, 'quoted'", "cents": 12_345}
    with bound_contextvars(request_id="req-1"), UnitOfWork(pg) as uow:
        register_party(uow, SYSTEM, _party(1))
        register_party(uow, SYSTEM, _party(2))
        uow.insert_at_commit(keys_t, _key("k-1", body))
        with sent_statements(pg) as sent:
            uow.commit()
    assert len(sent) == 1 and sent[0].startswith("WITH w0 AS (INSERT INTO events")
    assert _chain_ok(pg) == 2
    with pg.connect() as conn:
        stored = conn.execute(text("select response_body from idempotency_keys")).scalar()
        traces = conn.execute(text("select seq, request_id from request_traces order by seq"))
        assert stored == body
        assert [tuple(r) for r in traces] == [(1, "req-1"), (2, "req-1")]
    assert ledger.verify(pg).ok


def test_a_key_another_unit_holds_fails_that_unit_alone(pg: Engine) -> None:
    with UnitOfWork(pg) as uow:
        uow.insert_at_commit(keys_t, _key("taken", {}))
        uow.commit()
    outcomes: list[str] = []
    with WriteBatch(pg) as batch:
        for n, key in enumerate(("a", "taken", "b")):
            try:
                with UnitOfWork(pg, batch) as uow:
                    register_party(uow, SYSTEM, _party(n))
                    uow.insert_at_commit(keys_t, _key(key, {"n": n}))
                    uow.commit()
                outcomes.append("committed")
            except IntegrityError:
                outcomes.append("refused")
        batch.commit()
    assert outcomes == ["committed", "refused", "committed"]
    assert _chain_ok(pg) == 2  # the refused unit's event, its seq taken by the next unit
    with pg.connect() as conn:
        names = conn.execute(text("select name from parties order by name")).scalars().all()
        keys = conn.execute(text("select key from idempotency_keys order by key")).scalars()
        assert names == ["P0", "P2"]
        assert list(keys) == ["a", "b", "taken"]
    assert ledger.verify(pg).ok


class _Upper(TypeDecorator[str]):
    impl = String
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        return None if value is None else str(value).upper()


def test_only_plain_columns_and_few_enough_rows_fit_in_one_statement() -> None:
    converting = Table("t", MetaData(), Column("v", _Upper(10), primary_key=True))
    assert not append_statement.fits({converting: [{"v": "x"}]})
    plain = Table("p", MetaData(), Column("v", String(10), primary_key=True))
    assert append_statement.fits({plain: [{"v": "x"}] * append_statement.MAX_PARAMETERS})
    too_many = [{"v": "x"}] * (append_statement.MAX_PARAMETERS + 1)
    assert not append_statement.fits({plain: too_many})


def test_a_units_held_back_updates_go_in_the_same_statement(pg: Engine) -> None:
    """A held row's changes (market/adapters/projections/pending.py), a JSON column's among
    them, are one `UPDATE` clause of the unit's one statement."""
    with UnitOfWork(pg) as uow:
        party = register_party(uow, SYSTEM, _party(1))["id"]
        uow.commit()
    with UnitOfWork(pg) as uow:
        uow.store.get("parties", party)
        uow.store.update("parties", party, {"name": "Renamed"})
        uow.store.update("parties", party, {"tax_types": ["CBT", "GIT"]})
        uow.events.append("test-update", "UPDATE_TEST", {}, SYSTEM.label)
        with sent_statements(pg) as sent:
            uow.commit()
    assert len(sent) == 1 and sent[0].startswith("WITH u0 AS (UPDATE parties SET")
    with pg.connect() as conn:
        row = conn.execute(text("select name, tax_types from parties")).one()
    assert tuple(row) == ("Renamed", ["CBT", "GIT"])
    assert _chain_ok(pg) == 2


def test_an_update_of_a_converting_column_does_not_fit_in_one_statement() -> None:
    table = Table(
        "t", MetaData(), Column("k", String(10), primary_key=True), Column("v", _Upper(10))
    )
    assert append_statement.fits({}, [(table, "a", {"k": "b"})])
    assert not append_statement.fits({}, [(table, "a", {"v": "b"})])
