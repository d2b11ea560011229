"""Run one command in one unit of work, honouring an Idempotency-Key.

The key is looked up and stored inside the same write transaction as the command's
events, so a retry either finds the committed response or runs the command afresh:
there is no window in which the events are committed but the key is not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Engine, select

from market.adapters.eventstore import utcnow_iso
from market.adapters.tables import IdempotencyKey
from market.services.errors import IdempotencyConflictError
from market.services.uow import UnitOfWork

T = TypeVar("T")
Rendered = tuple[int, dict[str, Any]]

keys_t = IdempotencyKey.__table__  # type: ignore[attr-defined]


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
) -> Rendered:
    with UnitOfWork(engine) as uow:
        if idempotency is not None:
            prior = uow.conn.execute(
                select(keys_t).where(
                    keys_t.c.scope == idempotency.scope, keys_t.c.key == idempotency.key
                )
            ).one_or_none()
            if prior is not None:
                if prior.request_hash != idempotency.request_hash:
                    raise IdempotencyConflictError(
                        "This Idempotency-Key was already used with a different request.",
                        {"idempotency_key": idempotency.key},
                    )
                return int(prior.status_code), dict(prior.response_body)
        status, body = render(command(uow))
        if idempotency is not None:
            uow.conn.execute(
                keys_t.insert().values(
                    scope=idempotency.scope,
                    key=idempotency.key,
                    request_hash=idempotency.request_hash,
                    status_code=status,
                    response_body=body,
                    created_at=utcnow_iso(),
                )
            )
        uow.commit()
        return status, body


def run(engine: Engine, command: Callable[[UnitOfWork], T]) -> T:
    """Run a command without idempotency (CLI, seeding, pages)."""
    with UnitOfWork(engine) as uow:
        result = command(uow)
        uow.commit()
        return result
