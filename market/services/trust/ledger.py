"""Reading, verifying and rebuilding the ledger. Both the full verify and replay re-check
the invariants the projections must keep (domain/invariants.py) over the tables: a fold
re-applies the events without the checks that admitted them."""

from __future__ import annotations

from sqlalchemy import Engine

from market.adapters import invariant_rows, rebuild
from market.adapters.eventstore import event_count, head, page_events
from market.adapters.rebuild import Progress, VerifyReport
from market.domain.errors import DomainError
from market.domain.invariants import Breach
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.paging import split_page
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.trust.checkpoint_views import EventShown, event_shown


def events_page(
    engine: Engine, actor: Actor, after: int, limit: int, stream: str | None = None
) -> tuple[list[EventShown], int | None]:
    actor.require(AUTHORITY, AUDITOR)
    with ReadOnly(engine) as conn:
        events = page_events(conn, after, limit + 1, stream)
    kept, nxt = split_page(events, limit, lambda e: e.seq)
    return [event_shown(e) for e in kept], nxt


class InvariantBrokenError(DomainError):
    code = "ledger_invariant_broken"

    def __init__(self, breaches: list[Breach]) -> None:
        super().__init__(
            f"The rebuilt tables break {len(breaches)} invariant(s); the first: {breaches[0]}.",
            {"breaches": [str(b) for b in breaches[:100]]},
        )
        self.breaches = breaches


def verify(engine: Engine, progress: Progress | None = None) -> VerifyReport:
    with ReadOnly(engine) as conn:
        report = rebuild.verify(conn, progress)
        found = invariant_rows.breaches(conn)
    if found:
        report.problems += [str(b) for b in found]
        report.ok = False
    return report


def verify_for(engine: Engine, actor: Actor) -> VerifyReport:
    actor.require(AUTHORITY, AUDITOR)
    return verify(engine)


def replay(engine: Engine, progress: Progress | None = None) -> int:
    """Rebuild the projections; refused (rolled back, InvariantBrokenError) when the rebuilt
    tables break an invariant: the events hold something the checks should have refused."""
    with UnitOfWork(engine) as uow:
        count = rebuild.replay(uow.conn, progress)
        found = invariant_rows.breaches(uow.conn)
        if found:
            raise InvariantBrokenError(found)
        uow.commit()
        return count


def count_events(engine: Engine) -> int:
    with ReadOnly(engine) as conn:
        return event_count(conn)


def head_of(engine: Engine) -> tuple[int, str]:
    with ReadOnly(engine) as conn:
        return head(conn)
