"""The write path on SQLite and PostgreSQL: one writer at a time holding the ledger head,
projection rows written in its transaction, events inserted in bulk at commit, all or
nothing."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from market.adapters.eventstore import GENESIS_HASH, head, iter_events
from market.domain.errors import DomainError
from market.services.kernel import runner
from market.services.kernel.actor import SYSTEM
from market.services.kernel.errors import IdempotencyConflictError
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, register_party
from market.services.trust import ledger
from tests.helpers import selects_naming

BIG = 100_000


def _party(n: int) -> NewParty:
    return NewParty(name=f"P{n}", tax_id=f"T-{n}", entity_type="llc", tax_types=["GIT"])


def _count(engine: Engine, table: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(f"select count(*) from {table}")).scalar() or 0)


def test_a_unit_of_work_of_100000_events_commits_as_one_chain(engine: Engine) -> None:
    """Past every driver's bind-parameter limit (65,535 on PostgreSQL, 32,766 on SQLite) if
    the events went as one statement: they go in chunks of executemany."""
    with UnitOfWork(engine) as uow:
        for n in range(BIG):
            uow.events.append(f"bulk-{n % 97}", "BULK_TEST", {"n": n}, SYSTEM.label)
        uow.commit()
    with engine.connect() as conn:
        seq, last = head(conn)
        prev = GENESIS_HASH
        for e in iter_events(conn):
            assert e.prev_hash == prev
            prev = e.hash
        assert prev == last
        assert [e.seq for e in itertools.islice(iter_events(conn, after=BIG - 3), 3)] == [
            BIG - 2,
            BIG - 1,
            BIG,
        ]
    assert seq == BIG == _count(engine, "events")
    with engine.connect() as conn:
        versions = conn.execute(
            text("select max(version) from events where stream = 'bulk-0'")
        ).scalar()
    assert versions == len(range(0, BIG, 97))


def test_projection_rows_are_written_at_once_and_events_at_commit(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        party = register_party(uow, SYSTEM, _party(1))
        # The party's row is in the transaction already; its event is not yet.
        found = uow.conn.execute(
            text("select name from parties where id = :id"), {"id": party["id"]}
        ).scalar()
        assert found == "P1"
        assert uow.conn.execute(text("select count(*) from events")).scalar() == 0
        uow.commit()
    assert _count(engine, "events") == 1 and _count(engine, "parties") == 1
    assert ledger.verify(engine).ok


def test_a_rolled_back_unit_of_work_of_many_events_writes_nothing(engine: Engine) -> None:
    with pytest.raises(RuntimeError), UnitOfWork(engine) as uow:
        for n in range(2_000):
            register_party(uow, SYSTEM, _party(n))
        raise RuntimeError("boom")
    assert _count(engine, "events") == _count(engine, "parties") == 0
    with engine.connect() as conn:
        assert head(conn) == (0, GENESIS_HASH)


def test_a_commit_refused_by_the_database_writes_nothing(engine: Engine) -> None:
    """A wrong stream version is refused by the unique (stream, version) when the events are
    inserted at commit: the projection rows written before go with the rollback."""
    with pytest.raises(IntegrityError), UnitOfWork(engine) as uow:
        register_party(uow, SYSTEM, _party(1))
        uow.events.note_version("clash", 0)
        uow.events.append("clash", "BULK_TEST", {}, SYSTEM.label)
        uow.events.note_version("clash", 0)
        uow.events.append("clash", "BULK_TEST", {}, SYSTEM.label)
        uow.commit()
    assert _count(engine, "events") == _count(engine, "parties") == 0
    _party_id = runner.run(engine, lambda u: register_party(u, SYSTEM, _party(2)))["id"]
    assert _party_id and ledger.verify(engine).ok


def test_racing_requests_with_one_idempotency_key_all_get_the_winners_answer(
    engine: Engine,
) -> None:
    key = runner.Idempotency("usr_1", "k-1", "h-1")
    answers: list[Any] = []
    barrier = threading.Barrier(4)
    lock = threading.Lock()

    def request(n: int) -> None:
        barrier.wait()
        found = runner.execute(
            engine,
            lambda uow: register_party(uow, SYSTEM, _party(n)),
            lambda party: (201, {"id": party["id"]}),
            key,
        )
        with lock:
            answers.append(found)

    threads = [threading.Thread(target=request, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 4 and len({a[1]["id"] for a in answers}) == 1
    assert _count(engine, "events") == 1 and _count(engine, "idempotency_keys") == 1
    assert ledger.verify(engine).ok


def test_one_writer_at_a_time_holds_the_ledger_head(engine: Engine) -> None:
    """A second unit of work waits at its start until the first has committed, and then
    sees what the first wrote."""
    entered = threading.Event()
    release = threading.Event()
    seen: list[int] = []

    def second() -> None:
        entered.wait()
        with UnitOfWork(engine) as uow:
            seen.append(int(uow.conn.execute(text("select count(*) from parties")).scalar() or 0))
            uow.commit()

    t = threading.Thread(target=second)
    t.start()
    with UnitOfWork(engine) as uow:
        register_party(uow, SYSTEM, _party(1))
        entered.set()
        release.wait(0.3)
        assert seen == []
        uow.commit()
    t.join()
    assert seen == [1]


def test_versions_read_in_bulk_continue_each_stream(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        for _ in range(2):
            uow.events.append("known", "BULK_TEST", {}, SYSTEM.label)
        uow.commit()
    with UnitOfWork(engine) as uow:
        uow.events.read_versions(["known", "fresh", "known"])
        assert uow.events.append("known", "BULK_TEST", {}, SYSTEM.label).version == 3
        assert uow.events.append("fresh", "BULK_TEST", {}, SYSTEM.label).version == 1
        uow.commit()
    with engine.connect() as conn:
        found = conn.execute(text("select stream, version from events order by seq")).all()
    assert [tuple(r) for r in found] == [("known", 1), ("known", 2), ("known", 3), ("fresh", 1)]


def _key_lookups(engine: Engine, run: Any) -> int:
    """How many statements read idempotency_keys while `run()` runs."""
    return selects_naming(engine, "idempotency_keys", run)[1]


def test_a_fresh_key_costs_no_lookup_and_a_replay_answers_from_the_store(engine: Engine) -> None:
    """Issue 25's statement diet: a new key is not looked up before the command runs. A
    replay that would succeed again (registering the same party anew) collides on the
    key's insert, rolls back and answers the first response; a different request under
    the key is refused."""
    key = runner.Idempotency("usr_1", "k-2", "h-2")

    def register(n: int, key: runner.Idempotency = key) -> Any:
        return runner.execute(
            engine,
            lambda uow: register_party(uow, SYSTEM, _party(n)),
            lambda party: (201, {"id": party["id"]}),
            key,
        )

    answers: list[Any] = []
    assert _key_lookups(engine, lambda: answers.append(register(10))) == 0
    assert _key_lookups(engine, lambda: answers.append(register(11))) == 1
    assert answers[0] == answers[1]
    assert _count(engine, "events") == 1 and _count(engine, "idempotency_keys") == 1
    with pytest.raises(IdempotencyConflictError):
        register(12, runner.Idempotency("usr_1", "k-2", "h-other"))
    assert _count(engine, "events") == 1 and ledger.verify(engine).ok


def test_a_replay_the_state_would_refuse_answers_the_stored_response(engine: Engine) -> None:
    """The first request moved the state so that running it again is refused (the same
    tax id twice): the key's stored answer is given, not the refusal; without the key,
    the refusal."""
    key = runner.Idempotency("usr_1", "k-3", "h-3")

    def register(key: runner.Idempotency | None) -> Any:
        return runner.execute(
            engine,
            lambda uow: register_party(uow, SYSTEM, _party(20)),
            lambda party: (201, {"id": party["id"]}),
            key,
        )

    first = register(key)
    assert register(key) == first
    with pytest.raises(DomainError):
        register(None)
    assert _count(engine, "events") == 1 and ledger.verify(engine).ok
