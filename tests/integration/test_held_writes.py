"""A unit of work's projection writes (DbStore) on PostgreSQL wait for the next read or the
commit and go out as one statement; on SQLite they run at once. Either way the
transaction reads what it wrote, a missing row is said where it is written, the
database's constraints still refuse, and nothing outlives a rollback."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError

from market.adapters import prepared
from market.adapters.prepared import Prepared, insert_row
from market.adapters.tables import IdempotencyKey, User
from market.services import runner
from market.services.uow import UnitOfWork

users_t = User.__table__  # type: ignore[attr-defined]
keys_t = IdempotencyKey.__table__  # type: ignore[attr-defined]
ROLE = Prepared(select(users_t.c.role).where(users_t.c.id == "usr_1"))


def _user(i: int, **changes: Any) -> dict[str, Any]:
    return {
        "id": f"usr_{i}",
        "email": f"u{i}@x.org",
        "password_hash": "h",
        "role": "participant",
        "party_id": None,
        "created_at": "2026-11-30T00:00:00.000000Z",
        "active": True,
    } | changes


def _roles(engine: Engine) -> dict[str, str]:
    with engine.connect() as conn:
        return dict(conn.execute(select(users_t.c.id, users_t.c.role)).tuples().all())


def test_postgresql_holds_writes_back_and_sqlite_does_not(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(1))
        uow.store.update("users", "usr_1", {"role": "auditor"})
        uow.store.update("users", "usr_1", {"active": False})
        queued = uow.store.take_pending()
        if engine.dialect.name == "postgresql":
            # One INSERT with both updates folded in: the row is written once.
            assert len(queued) == 1
            assert queued[0][1] == _user(1, role="auditor", active=False)
            prepared.run_all(uow.conn, queued)
        else:
            assert queued == []
        uow.commit()
    assert _roles(engine) == {"usr_1": "auditor"}


def test_a_unit_of_work_reads_what_it_wrote(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(1))
        uow.store.insert("users", _user(2, role="authority"))
        # Through a prepared statement, SQLAlchemy, and the store's own reads.
        assert ROLE.scalar(uow.conn) == "participant"
        uow.store.update("users", "usr_1", {"role": "auditor"})
        found = uow.conn.execute(select(users_t.c.role).where(users_t.c.id == "usr_1"))
        assert found.scalar() == "auditor"
        uow.store.update("users", "usr_2", {"role": "participant"})
        assert [r["role"] for r in uow.store.rows("users")] == ["auditor", "participant"]
        uow.commit()
    assert _roles(engine) == {"usr_1": "auditor", "usr_2": "participant"}


def test_a_missing_row_is_refused_where_it_is_written(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(1))
        with pytest.raises(LookupError, match="users usr_9 does not exist"):
            uow.store.update("users", "usr_9", {"role": "auditor"})


def test_constraints_still_refuse_and_nothing_is_written(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(1))
        uow.commit()
    with pytest.raises(IntegrityError), UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(2))
        uow.store.update("users", "usr_2", {"role": "superuser"})  # CHECK role in (...)
        uow.store.insert("users", _user(3))
        uow.commit()
    with pytest.raises(IntegrityError), UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(4))
        uow.store.insert("users", _user(4, email="other@x.org"))  # the same key twice
        uow.commit()
    assert _roles(engine) == {"usr_1": "participant"}


def test_a_rollback_forgets_the_queue_and_stops_watching_the_connection(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(1))
        conn = uow.conn
    assert id(conn) not in prepared._HELD_BACK
    assert _roles(engine) == {}


def test_a_racing_idempotency_key_found_at_commit_is_answered_from_the_winner(
    engine: Engine,
) -> None:
    """The key's answer is written at commit with the events. When another request with
    the same key committed first, that commit fails on the key, and the retry answers
    with the winner's response instead of a 500."""
    key = runner.Idempotency(scope="s", key="k", request_hash="h")
    winner = {
        "scope": "s",
        "key": "k",
        "request_hash": "h",
        "status_code": 201,
        "response_body": {"who": "winner"},
        "created_at": "2026-11-30T00:00:00.000000Z",
    }
    runs: list[int] = []

    def command(uow: UnitOfWork) -> dict[str, str]:
        runs.append(1)
        if len(runs) == 1:  # the other request commits while this one works
            if engine.dialect.name == "postgresql":
                with engine.begin() as other:
                    insert_row(other, keys_t, winner)
            else:  # one writer at a time: the "other" write shares this transaction
                insert_row(uow.conn, keys_t, winner)
        return {"who": "loser"}

    status, body = runner.execute(engine, command, lambda r: (201, r), key, rows_first=True)
    if engine.dialect.name == "postgresql":
        assert (status, body, len(runs)) == (201, {"who": "winner"}, 1)
    else:  # the shared write was rolled back with the attempt: the retry runs afresh
        assert (status, body, len(runs)) == (201, {"who": "loser"}, 2)


def test_writes_sent_before_a_rollback_are_not_kept(engine: Engine) -> None:
    """On PostgreSQL the transaction is begun by the query that takes the write-mode lock
    (lock_write_mode), on a connection switched to autocommit: what was sent inside it
    still goes with the rollback, and the pooled connection is given back as it was."""
    with UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(1))
        assert ROLE.scalar(uow.conn) == "participant"  # the insert is on the server now
        raw: Any = uow.conn.connection.dbapi_connection
        if engine.dialect.name == "postgresql":
            assert raw.autocommit is True
            assert raw.pgconn.transaction_status == 2  # INTRANS: a transaction is open
    assert _roles(engine) == {}
    with engine.connect() as conn:
        assert getattr(conn.connection.dbapi_connection, "autocommit", False) in (False, -1)
    with pytest.raises(RuntimeError), UnitOfWork(engine) as uow:
        uow.store.insert("users", _user(2))
        uow.store.flush()
        raise RuntimeError("the command fails after writing")
    assert _roles(engine) == {}
