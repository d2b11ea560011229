"""The event store on SQLite and PostgreSQL: chain, append-only, unit of work, replay, verify."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from market.adapters.eventstore import GENESIS_HASH, compute_hash, iter_events
from market.domain.commands.parties import RecordOwnership
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, record_ownership, register_party
from market.services.trust import ledger


def _register(engine: Engine, name: str, tax_id: str) -> str:
    new = NewParty(name=name, tax_id=tax_id, entity_type="llc", tax_types=["GIT"])
    return run(engine, lambda uow: register_party(uow, SYSTEM, new))["id"]  # type: ignore[no-any-return]


def test_appended_events_form_a_gap_free_hash_chain(engine: Engine) -> None:
    a = _register(engine, "A", "1")
    b = _register(engine, "B", "2")
    run(engine, lambda uow: record_ownership(uow, SYSTEM, RecordOwnership(b, a, 700, 100)))
    with engine.connect() as conn:
        evs = list(iter_events(conn))
    assert [e.seq for e in evs] == [1, 2, 3]
    assert evs[0].prev_hash == GENESIS_HASH
    for prev, e in itertools.pairwise(evs):
        assert e.prev_hash == prev.hash
    for e in evs:
        assert e.hash == compute_hash(
            e.seq, e.stream, e.version, e.type, e.payload, e.actor, e.recorded_at, e.prev_hash
        )
    assert [(e.stream, e.version) for e in evs][1:] == [(f"party-{b}", 1), (f"party-{b}", 2)]
    assert evs[0].recorded_at.endswith("Z")


@pytest.mark.parametrize("statement", ["UPDATE events SET actor = 'x'", "DELETE FROM events"])
def test_the_database_refuses_to_change_or_delete_events(engine: Engine, statement: str) -> None:
    _register(engine, "A", "1")
    with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
        conn.execute(text(statement))
    assert ledger.count_events(engine) == 1


def test_a_unit_of_work_left_without_commit_writes_nothing(engine: Engine) -> None:
    new = NewParty(name="A", tax_id="1", entity_type="llc", tax_types=["GIT"])
    with UnitOfWork(engine) as uow:
        register_party(uow, SYSTEM, new)
    assert ledger.count_events(engine) == 0
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from parties")).scalar() == 0


def test_an_exception_inside_the_unit_of_work_rolls_everything_back(engine: Engine) -> None:
    new = NewParty(name="A", tax_id="1", entity_type="llc", tax_types=["GIT"])
    with pytest.raises(RuntimeError), UnitOfWork(engine) as uow:
        register_party(uow, SYSTEM, new)
        raise RuntimeError("boom")
    assert ledger.count_events(engine) == 0


def test_a_unit_of_work_that_fails_to_start_gives_back_its_connection_and_lock(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """__exit__ never runs when __enter__ raises: the connection must go back to the pool
    and, on SQLite, the writer lock file must be released, or the next writer waits
    forever."""
    from market.adapters.eventstore import EventStore

    def refuse(self: EventStore) -> None:
        raise RuntimeError("the head could not be locked")

    checked_out = engine.pool.checkedout()  # type: ignore[attr-defined]
    with monkeypatch.context() as patch:
        patch.setattr(EventStore, "lock_head", refuse)
        with pytest.raises(RuntimeError), UnitOfWork(engine):
            pass
    assert engine.pool.checkedout() == checked_out  # type: ignore[attr-defined]
    _register(engine, "after a failed start", "T-after")  # the writer lock is free again
    assert ledger.verify(engine).ok


def test_replay_rebuilds_projections_equal_to_the_live_ones(engine: Engine) -> None:
    a = _register(engine, "A", "1")
    b = _register(engine, "B", "2")
    run(engine, lambda uow: record_ownership(uow, SYSTEM, RecordOwnership(b, a, 700, 100)))
    run(engine, lambda uow: record_ownership(uow, SYSTEM, RecordOwnership(b, a, 800, 200, 5000)))
    with engine.connect() as conn:
        before = [dict(r) for r in conn.execute(text("select * from ownerships")).mappings()]
        parties_before = conn.execute(text("select id, name from parties order by id")).all()
    assert ledger.replay(engine) == 4
    with engine.connect() as conn:
        after = [dict(r) for r in conn.execute(text("select * from ownerships")).mappings()]
        parties_after = conn.execute(text("select id, name from parties order by id")).all()
    assert before == after and after[0]["voting_bps"] == 800
    assert parties_before == parties_after
    assert ledger.verify(engine).ok


@contextmanager
def _triggers_dropped(engine: Engine) -> Iterator[None]:
    """Drop the append-only triggers for one test and put them back: the PostgreSQL
    database is shared by the whole test session, unlike each test's SQLite copy."""
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.execute(text("DROP TRIGGER events_no_update"))
            conn.execute(text("DROP TRIGGER events_no_delete"))
        else:
            conn.execute(text("DROP TRIGGER events_no_update_delete ON events"))
    try:
        yield
    finally:
        if engine.dialect.name != "sqlite":
            with engine.begin() as conn:
                conn.execute(
                    text(
                        "CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON "
                        "events FOR EACH ROW EXECUTE FUNCTION events_append_only()"
                    )
                )


def test_verify_names_the_first_event_whose_payload_was_tampered_with(engine: Engine) -> None:
    for i in range(4):
        _register(engine, f"Party {i}", str(i))
    assert ledger.verify(engine).ok
    cast = "payload" if engine.dialect.name == "sqlite" else "payload::text"
    back = "" if engine.dialect.name == "sqlite" else "::json"
    with _triggers_dropped(engine), engine.begin() as conn:
        # One byte: "Party 2" becomes "Party 3" inside seq 3's stored JSON.
        conn.execute(
            text(
                f"UPDATE events SET payload = replace({cast}, 'Party 2', 'Party 3'){back} "
                "WHERE seq = 3"
            )
        )
    report = ledger.verify(engine)
    assert not report.ok
    assert report.first_bad_seq == 3
    assert any("seq 3" in p for p in report.problems)


def test_verify_notices_a_projection_changed_behind_the_ledger(engine: Engine) -> None:
    a = _register(engine, "A", "1")
    with engine.begin() as conn:
        conn.execute(text("UPDATE parties SET name = 'Forged' WHERE id = :id"), {"id": a})
    report = ledger.verify(engine)
    assert not report.ok
    assert report.first_bad_seq == 1
    assert any("parties" in p for p in report.problems)
    ledger.replay(engine)
    assert ledger.verify(engine).ok
