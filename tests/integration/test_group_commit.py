"""Group commit on SQLite and PostgreSQL: units of work that wait for the head share one
transaction, each in its own savepoint; one that refuses, raises or breaks a constraint
answers alone and the others commit; nothing is answered before the batch's commit."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from market.adapters.eventstore import GENESIS_HASH, head, iter_events
from market.domain.errors import DomainError
from market.services.kernel import runner
from market.services.kernel.actor import SYSTEM
from market.services.kernel.group_commit import GroupCommitter
from market.services.kernel.uow import UnitOfWork
from market.services.kernel.write_batch import WriteBatch
from market.services.parties.parties import NewParty, register_party
from market.services.trust import ledger
from tests.helpers import sent_statements

pytestmark = pytest.mark.storage


def _party(n: int) -> NewParty:
    return NewParty(name=f"P{n}", tax_id=f"T-{n}", entity_type="llc", tax_types=["GIT"])


def _names(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        return {r[0] for r in conn.execute(text("select name from parties"))}


def _chain_ok(engine: Engine) -> int:
    with engine.connect() as conn:
        seq, last = head(conn)
        prev, count = GENESIS_HASH, 0
        for e in iter_events(conn):
            assert e.prev_hash == prev and e.seq == count + 1
            prev, count = e.hash, count + 1
        assert prev == last and seq == count
    return count


def _register(n: int) -> Callable[[UnitOfWork], Any]:
    def work(uow: UnitOfWork) -> Any:
        party = register_party(uow, SYSTEM, _party(n))
        uow.commit()
        return party["id"]

    return work


class Held:
    """A first unit of work that holds its batch open until released, so that the units
    submitted meanwhile queue up and form the next batch together."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def work(self, uow: UnitOfWork) -> Any:
        self.entered.set()
        assert self.release.wait(10)
        party = register_party(uow, SYSTEM, _party(0))
        uow.commit()
        return party["id"]


def _run_batched(
    engine: Engine, works: list[Callable[[UnitOfWork], Any]]
) -> tuple[list[Any], list[int]]:
    """Submit a held unit, then `works` from their own threads while it is held, queued one
    at a time so the queue keeps their order; answers of `works` (a result or the
    exception) and the batch sizes seen."""
    sizes: list[int] = []
    writer = GroupCommitter(engine, max_batch=32, on_batch=lambda units, _sent: sizes.append(units))
    held = Held()
    first = threading.Thread(target=writer.submit, args=(held.work,))
    first.start()
    assert held.entered.wait(10)
    answers: list[Any] = [None] * len(works)

    def submit(i: int) -> None:
        try:
            answers[i] = writer.submit(works[i])
        except Exception as exc:
            answers[i] = exc

    threads = []
    for i in range(len(works)):
        threads.append(threading.Thread(target=submit, args=(i,)))
        threads[-1].start()
        while writer.waiting() < i + 1:
            threading.Event().wait(0.005)
    held.release.set()
    for t in [first, *threads]:
        t.join(10)
    return answers, sizes


def test_units_waiting_for_the_head_commit_in_one_batch(engine: Engine) -> None:
    answers, sizes = _run_batched(engine, [_register(n) for n in range(1, 8)])
    assert all(isinstance(a, str) for a in answers)
    assert sizes == [1, 7]
    assert _names(engine) == {f"P{n}" for n in range(8)}
    assert _chain_ok(engine) == 8
    assert ledger.verify(engine).ok


def test_units_queued_while_the_leader_waits_for_the_head_join_its_batch(
    engine: Engine,
) -> None:
    """Another writer (another process, in production) holds the head: the leader waits
    for it, and the units queued meanwhile go in the leader's batch, not the next one
    (sizes [4], not [1, 3])."""
    sizes: list[int] = []
    writer = GroupCommitter(engine, max_batch=32, on_batch=lambda units, _sent: sizes.append(units))
    answers: list[Any] = []
    with WriteBatch(engine):  # the other writer, holding the head lock
        leader = threading.Thread(target=lambda: answers.append(writer.submit(_register(1))))
        leader.start()
        while writer.waiting() or not leader.is_alive():  # the leader has taken its unit
            threading.Event().wait(0.005)
        threads = [
            threading.Thread(target=lambda n=n: answers.append(writer.submit(_register(n))))
            for n in range(2, 5)
        ]
        for t in threads:
            t.start()
        while writer.waiting() < 3:
            threading.Event().wait(0.005)
    for t in [leader, *threads]:
        t.join(10)
    assert sizes == [4] and len(answers) == 4
    assert _names(engine) == {f"P{n}" for n in range(1, 5)}
    assert _chain_ok(engine) == 4


def test_a_refused_a_raising_and_a_constraint_breaking_unit_answer_alone(engine: Engine) -> None:
    def refuses(uow: UnitOfWork) -> Any:
        register_party(uow, SYSTEM, _party(90))
        raise DomainError("not today", {"field": "x"})

    def raises(uow: UnitOfWork) -> Any:
        register_party(uow, SYSTEM, _party(91))
        raise RuntimeError("boom")

    def breaks_a_constraint(uow: UnitOfWork) -> Any:
        register_party(uow, SYSTEM, _party(92))
        uow.conn.execute(text("insert into ledger_head (id, seq, hash) values (1, 0, 'x')"))
        uow.commit()

    works = [_register(1), refuses, _register(2), raises, breaks_a_constraint, _register(3)]
    answers, sizes = _run_batched(engine, works)
    assert isinstance(answers[1], DomainError)
    assert isinstance(answers[3], RuntimeError)
    assert isinstance(answers[4], IntegrityError)
    assert all(isinstance(answers[i], str) for i in (0, 2, 5))
    assert sizes == [1, 3]  # the units that committed
    assert _names(engine) == {"P0", "P1", "P2", "P3"}  # nothing of the failed ones
    assert _chain_ok(engine) == 4
    assert ledger.verify(engine).ok


def _raises_after_writing(n: int) -> Callable[[UnitOfWork], Any]:
    def work(uow: UnitOfWork) -> Any:
        register_party(uow, SYSTEM, _party(n))
        raise RuntimeError("boom")

    return work


def _writes_without_committing(uow: UnitOfWork) -> Any:
    return register_party(uow, SYSTEM, _party(95))["id"]


def test_a_batchs_savepoints_stay_open_until_its_commit(engine: Engine) -> None:
    """A unit taken on sends no RELEASE: the next unit's savepoint nests in its, one that
    fails rolls back to its own alone, and the batch's COMMIT commits every unit taken on."""
    works = [_register(1), _raises_after_writing(90), _register(2), _register(3)]
    with sent_statements(engine) as sent:
        answers, sizes = _run_batched(engine, works)
    assert isinstance(answers[1], RuntimeError) and sizes == [1, 3]
    said = [" ".join(s.split()).upper() for s in sent]
    assert not [s for s in said if s.startswith("RELEASE")]
    assert len([s for s in said if s.startswith("SAVEPOINT")]) == 3  # the first unit: none
    assert len([s for s in said if s.startswith("ROLLBACK TO SAVEPOINT")]) == 1
    assert _names(engine) == {"P0", "P1", "P2", "P3"}
    assert _chain_ok(engine) == 4
    assert ledger.verify(engine).ok


@pytest.mark.parametrize("failing", [1, 2, "no commit"])
def test_a_batch_whose_first_units_fail_goes_on_with_the_rest(engine: Engine, failing: Any) -> None:
    """The first unit of a batch runs without a savepoint: when it fails, or writes and
    ends without committing, the batch rolls back and takes the head again, and the next
    unit is the first again. Queued in order behind a held unit: the failing units, then
    two that commit."""
    if failing == "no commit":
        works, failing, answered = [_writes_without_committing], 1, str
    else:
        works = [_raises_after_writing(90 + n) for n in range(failing)]
        answered = RuntimeError
    answers, sizes = _run_batched(engine, [*works, _register(1), _register(2)])
    assert all(isinstance(a, answered) for a in answers[:failing])
    assert all(isinstance(a, str) for a in answers[failing:])
    assert sizes == [1, 2]
    assert _names(engine) == {"P0", "P1", "P2"}  # nothing of the failed ones
    assert _chain_ok(engine) == 3
    assert ledger.verify(engine).ok


def test_a_batch_whose_commit_fails_answers_every_unit_with_the_error(engine: Engine) -> None:
    def loses_the_connection(uow: UnitOfWork) -> Any:
        register_party(uow, SYSTEM, _party(50))
        uow.commit()
        uow.conn.invalidate()  # the database connection is gone before the batch commits

    answers, sizes = _run_batched(engine, [_register(1), loses_the_connection, _register(2)])
    assert answers[0] is not None and not isinstance(answers[0], str)
    assert all(isinstance(a, Exception) for a in answers)
    assert sizes == [1]  # only the held batch committed
    assert _names(engine) == {"P0"}
    assert _chain_ok(engine) == 1


def test_the_idempotency_key_of_two_units_in_one_batch_answers_once(engine: Engine) -> None:
    key = runner.Idempotency("user-1", "k-1", "hash-1")
    calls: list[int] = []

    def command(uow: UnitOfWork) -> Any:
        calls.append(1)
        return register_party(uow, SYSTEM, _party(len(calls)))

    def keyed(uow: UnitOfWork) -> Any:
        return runner.execute_in(uow, command, lambda p: (201, {"id": p["id"]}), key)

    answers, sizes = _run_batched(engine, [keyed, keyed])
    assert sizes == [1, 1]  # the second found the first's answer and wrote nothing
    assert answers[0] == answers[1] and len(calls) == 1
    assert _chain_ok(engine) == 2  # the held unit's party and the keyed one


def test_execute_with_a_writer_stores_the_key_with_the_events(engine: Engine) -> None:
    key = runner.Idempotency("user-1", "k-2", "hash-2")
    writer = GroupCommitter(engine)

    def command(uow: UnitOfWork) -> Any:
        return register_party(uow, SYSTEM, _party(7))

    first = runner.execute(engine, command, lambda p: (201, {"id": p["id"]}), key, writer=writer)
    again = runner.execute(engine, command, lambda p: (201, {"id": p["id"]}), key, writer=writer)
    assert first == again and _chain_ok(engine) == 1
    with engine.connect() as conn:
        assert conn.execute(text("select count(*) from idempotency_keys")).scalar() == 1


def test_a_batch_reports_the_statements_it_sent(engine: Engine) -> None:
    """`on_batch` is told the statements the batch sent (BEGIN and SAVEPOINT
    included), as a listener on the engine counts them."""
    seen: list[tuple[int, int]] = []
    writer = GroupCommitter(engine, on_batch=lambda units, sent: seen.append((units, sent)))
    writer.submit(_register(0))  # the first statements of a fresh engine set it up
    with sent_statements(engine) as counted:
        writer.submit(_register(1))
    assert seen[1] == (1, len(counted)) and len(counted) >= 4


def test_an_idle_writer_commits_at_once_and_alone(engine: Engine) -> None:
    sizes: list[int] = []
    writer = GroupCommitter(engine, on_batch=lambda units, _sent: sizes.append(units))
    for n in range(3):
        writer.submit(_register(n))
    assert sizes == [1, 1, 1]
    assert _chain_ok(engine) == 3


def test_a_unit_cannot_wait_for_the_batch_running_it(engine: Engine) -> None:
    writer = GroupCommitter(engine)

    def nested(uow: UnitOfWork) -> Any:
        return writer.submit(_register(2))

    with pytest.raises(RuntimeError, match="cannot wait"):
        writer.submit(nested)
    assert _chain_ok(engine) == 0


def test_a_failing_unit_alone_in_its_batch_writes_nothing(engine: Engine) -> None:
    sizes: list[int] = []
    writer = GroupCommitter(engine, on_batch=lambda units, _sent: sizes.append(units))

    def half_then_fails(uow: UnitOfWork) -> Any:
        register_party(uow, SYSTEM, _party(1))
        raise DomainError("refused", {})

    def never_commits(uow: UnitOfWork) -> Any:
        return register_party(uow, SYSTEM, _party(2))

    with pytest.raises(DomainError):
        writer.submit(half_then_fails)
    writer.submit(never_commits)
    assert sizes == [] and _names(engine) == set() and _chain_ok(engine) == 0


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        GroupCommitter(None, max_batch=0)  # type: ignore[arg-type]


def test_a_database_error_in_one_unit_leaves_the_batch_usable(engine: Engine) -> None:
    def bad_sql(uow: UnitOfWork) -> Any:
        uow.conn.execute(text("select * from no_such_table"))

    answers, sizes = _run_batched(engine, [bad_sql, _register(1)])
    assert isinstance(answers[0], DBAPIError) and isinstance(answers[1], str)
    assert sizes == [1, 1]
    assert _names(engine) == {"P0", "P1"}
