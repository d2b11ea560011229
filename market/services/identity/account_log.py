"""The account events of the audit trail (issue 28 item 9): sign-ins, second factor,
passwords, invitations, deactivation, each an ACCOUNT_EVENT_RECORDED on the ledger
stream `account-<user id>`, with the actor label of whoever did it, so the audit trail
(services/queries/audit.py) lists them with the user's other events."""

from __future__ import annotations

from sqlalchemy import Engine

from market.adapters.repositories import identity as repo
from market.domain.events.accounts import AccountEventRecorded
from market.services.kernel import clock, runner
from market.services.kernel.actor import Actor
from market.services.kernel.uow import UnitOfWork
from market.services.notify.delivery import iso


def _label_of(engine: Engine, user_id: str) -> str:
    user = repo.load_user(engine, user_id)
    acted_for = (user.party_id or user.role) if user is not None else "unknown"
    return f"user:{user_id}@{acted_for}"


def record(
    engine: Engine,
    user_id: str,
    kind: str,
    detail: str | None = None,
    by: Actor | None = None,
) -> None:
    """Append one account event; `by` is who did it when not the user itself."""
    label = by.label if by is not None else _label_of(engine, user_id)
    recorded = _event(user_id, kind, detail, by)

    def append(uow: UnitOfWork) -> None:
        uow.append(f"account-{user_id}", recorded, label)

    runner.run(engine, append)


def record_in(uow: UnitOfWork, user_id: str, kind: str, detail: str | None, by: Actor) -> None:
    """The same event, by `by`, in a unit of work the caller commits with its own."""
    uow.append(f"account-{user_id}", _event(user_id, kind, detail, by), by.label)


def _event(user_id: str, kind: str, detail: str | None, by: Actor | None) -> AccountEventRecorded:
    return AccountEventRecorded(
        user_id=user_id,
        kind=kind,
        detail=detail[:300] if detail else None,
        by_user_id=by.user_id if by is not None else None,
        at=iso(clock.now_utc()),
    )
