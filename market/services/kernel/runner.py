"""Run one command in one unit of work, honouring an Idempotency-Key.

The key is stored inside the same write transaction as the command's events, so a retry
either finds the committed response or runs the command afresh: there is no window in
which the events are committed but the key is not.

A new key is the common case, so the stored answer is looked up only when it can matter:
when the command refuses (a replay of a request that succeeded would be refused by the
state it moved) and when the key's insert collides (a replay that would succeed again,
or a racing twin): that unit of work rolls back and runs again, looking first. A fresh
keyed write therefore costs no lookup statement (issue 25's statement diet).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Engine, bindparam, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from market.adapters.db import violates
from market.adapters.eventstore import utcnow_iso
from market.adapters.queries import Query
from market.adapters.tables import IdempotencyKey
from market.domain.errors import DomainError
from market.services.kernel.errors import IdempotencyConflictError
from market.services.kernel.group_commit import GroupCommitter
from market.services.kernel.uow import UnitOfWork

T = TypeVar("T")
Rendered = tuple[int, dict[str, Any]]

keys_t = IdempotencyKey.__table__  # type: ignore[attr-defined]
_PRIOR = Query(
    select(keys_t).where(keys_t.c.scope == bindparam("scope"), keys_t.c.key == bindparam("key"))
)

# PostgreSQL's deadlock_detected and serialization_failure: the transaction was rolled
# back whole, so running the command again is safe.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})
ATTEMPTS = 5


class _KeyTaken(Exception):
    """Another request with the same Idempotency-Key committed first."""


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, _KeyTaken):
        return True
    return isinstance(exc, DBAPIError) and (
        getattr(exc.orig, "sqlstate", None) in RETRYABLE_SQLSTATES
    )


def _retrying(attempt: Callable[[], T]) -> T:
    """Run a whole unit of work again when the database rolled it back (a deadlock or a
    serialization failure) or a racing Idempotency-Key committed first."""
    for tries_left in range(ATTEMPTS - 1, -1, -1):
        try:
            return attempt()
        except Exception as exc:
            if tries_left == 0 or not _retryable(exc):
                raise
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Idempotency:
    scope: str
    key: str
    request_hash: str


def execute(
    engine: Engine,
    command: Callable[[UnitOfWork], T],
    render: Callable[[T], Rendered],
    idempotency: Idempotency | None = None,
    writer: GroupCommitter | None = None,
) -> Rendered:
    """`command` in a unit of work, its result rendered as (status, body) and stored under
    the Idempotency-Key if one is given. With a `writer`, the unit of work joins its next
    batch (group commit) and this returns once that batch has committed."""

    seen_taken = False

    def once(uow: UnitOfWork) -> Rendered:
        return execute_in(uow, command, render, idempotency, look_first=seen_taken)

    def attempt() -> Rendered:
        nonlocal seen_taken
        try:
            return _submit(engine, once, writer)
        except _KeyTaken:
            seen_taken = True
            raise

    return _retrying(attempt)


def _submit(engine: Engine, work: Callable[[UnitOfWork], T], writer: GroupCommitter | None) -> T:
    if writer is not None:
        return writer.submit(work)
    with UnitOfWork(engine) as uow:
        return work(uow)


def _stored_answer(uow: UnitOfWork, idempotency: Idempotency) -> Rendered | None:
    """The answer committed under this key, or None; a key used for another request is
    refused."""
    prior = _PRIOR.first(uow.conn, {"scope": idempotency.scope, "key": idempotency.key})
    if prior is None:
        return None
    if prior["request_hash"] != idempotency.request_hash:
        raise IdempotencyConflictError(
            "This Idempotency-Key was already used with a different request.",
            {"idempotency_key": idempotency.key},
        )
    status: int = prior["status_code"]
    return status, dict(prior["response_body"])


def _answer_or_refuse(uow: UnitOfWork, idempotency: Idempotency, refusal: DomainError) -> Rendered:
    """A refused command under a key not looked up yet: the key's stored answer if it has
    one, else the refusal. Should the transaction be unable to read (a refusal raised
    after a failed statement), the refusal stands and the key was not used."""
    try:
        stored = _stored_answer(uow, idempotency)
    except DBAPIError:
        raise refusal from None
    if stored is None:
        raise refusal
    return stored


def execute_in(
    uow: UnitOfWork,
    command: Callable[[UnitOfWork], T],
    render: Callable[[T], Rendered],
    idempotency: Idempotency | None,
    *,
    look_first: bool = True,
) -> Rendered:
    """`look_first=False` runs the command before looking for the key's stored answer
    (see the module's note); the answer is the same either way."""
    if idempotency is not None and look_first:
        stored = _stored_answer(uow, idempotency)
        if stored is not None:
            return stored
    try:
        status, body = render(command(uow))
    except DomainError as refusal:
        if idempotency is None or look_first:
            raise
        return _answer_or_refuse(uow, idempotency, refusal)
    if idempotency is not None:
        uow.insert_at_commit(
            keys_t,
            {
                "scope": idempotency.scope,
                "key": idempotency.key,
                "request_hash": idempotency.request_hash,
                "status_code": status,
                "response_body": body,
                "created_at": utcnow_iso(),
            },
        )
    try:
        uow.commit()
    except IntegrityError as exc:
        # The key was not looked up first (a fresh key is the common case), or a racing
        # writer that does not hold the head stored it meanwhile: this unit rolls back and
        # the next attempt looks first, finding the stored answer.
        if idempotency is not None and violates(exc, keys_t.name):
            raise _KeyTaken from exc
        raise
    return status, body


def run(
    engine: Engine, command: Callable[[UnitOfWork], T], writer: GroupCommitter | None = None
) -> T:
    """Run a command without idempotency (CLI, seeding, pages)."""

    def once(uow: UnitOfWork) -> T:
        result = command(uow)
        uow.commit()
        return result

    return _retrying(lambda: _submit(engine, once, writer))


def rehearse(engine: Engine, command: Callable[[UnitOfWork], T]) -> T:
    """Run a command to learn what it would decide, and write nothing: its unit of work
    rolls back. A review page calls this with the very command its confirm will run, so
    a review that passes is not refused at the confirm unless the ledger moved between."""
    with UnitOfWork(engine) as uow:
        return command(uow)
