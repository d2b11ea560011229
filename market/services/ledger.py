"""Reading, verifying and rebuilding the ledger."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from market.adapters import rebuild
from market.adapters.eventstore import event_count, head, page_events
from market.adapters.rebuild import Progress, VerifyReport
from market.services.actor import AUDITOR, AUTHORITY, Actor
from market.services.paging import split_page
from market.services.uow import ReadOnly, UnitOfWork


def events_page(
    engine: Engine, actor: Actor, after: int, limit: int, stream: str | None = None
) -> tuple[list[dict[str, Any]], int | None]:
    actor.require(AUTHORITY, AUDITOR)
    with ReadOnly(engine) as conn:
        events = page_events(conn, after, limit + 1, stream)
    kept, nxt = split_page(events, limit, lambda e: e.seq)
    return [e.as_dict() for e in kept], nxt


def verify(engine: Engine, progress: Progress | None = None) -> VerifyReport:
    with ReadOnly(engine) as conn:
        return rebuild.verify(conn, progress)


def verify_for(engine: Engine, actor: Actor) -> VerifyReport:
    actor.require(AUTHORITY, AUDITOR)
    return verify(engine)


def replay(engine: Engine, progress: Progress | None = None) -> int:
    with UnitOfWork(engine) as uow:
        count = rebuild.replay(uow.conn, progress)
        uow.commit()
        return count


def count_events(engine: Engine) -> int:
    with ReadOnly(engine) as conn:
        return event_count(conn)


def head_of(engine: Engine) -> tuple[int, str]:
    with ReadOnly(engine) as conn:
        return head(conn)
