"""The audit trail per user: every event a user's actions appended, and the party it
acted for (from the event's `actor`, `user:<id>@<party or role>`; older events say
`user:<id>`, and the user's party then is the one they belong to)."""

from __future__ import annotations

from typing import TypedDict

from sqlalchemy import Engine, or_, select

from market.adapters.eventstore import event_from_row, events_t
from market.adapters.tables import Party, User
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.paging import split_page
from market.services.trust.checkpoint_views import EventShown, event_shown

users_t = User.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]


class AuditUser(TypedDict):
    id: str
    email: str
    role: str
    party_id: str | None


class ListedUser(AuditUser):
    party_name: str | None  # the name of the party it belongs to


class AuditEvent(EventShown):
    user_id: str
    acted_for: str | None  # the party id the user acted for, or its role


def parse(label: str) -> tuple[str | None, str | None]:
    """(user id, acted for) of an actor label; (None, None) for labels not of a user."""
    if not label.startswith("user:"):
        return None, None
    user_id, _, acted_for = label[len("user:") :].partition("@")
    return user_id, acted_for or None


def users(engine: Engine, actor: Actor) -> list[ListedUser]:
    actor.require(AUTHORITY, AUDITOR)
    stmt = select(
        users_t.c.id, users_t.c.email, users_t.c.role, users_t.c.party_id, parties_t.c.name
    ).select_from(users_t.outerjoin(parties_t, parties_t.c.id == users_t.c.party_id))
    with engine.connect() as conn:
        rows = conn.execute(stmt.order_by(users_t.c.email)).all()
    return [
        {"id": r.id, "email": r.email, "role": r.role, "party_id": r.party_id, "party_name": r.name}
        for r in rows
    ]


def user_events(
    engine: Engine, actor: Actor, user_id: str, after: int | None, limit: int
) -> tuple[AuditUser, list[AuditEvent], int | None]:
    """The user, and the events it appended after seq `after`, oldest first."""
    actor.require(AUTHORITY, AUDITOR)
    with engine.connect() as conn:
        user = conn.execute(select(users_t).where(users_t.c.id == user_id)).mappings().first()
        if user is None:
            raise NotFoundError(f"User {user_id} does not exist.", {"user_id": user_id})
        label = f"user:{user_id}"
        stmt = select(events_t).where(
            or_(events_t.c.actor == label, events_t.c.actor.like(f"{label}@%"))
        )
        if after is not None:
            stmt = stmt.where(events_t.c.seq > after)
        rows = conn.execute(stmt.order_by(events_t.c.seq).limit(limit + 1)).all()
    kept, nxt = split_page(rows, limit, lambda r: int(r.seq))
    items: list[AuditEvent] = []
    for row in kept:
        event = event_from_row(row)
        _, acted_for = parse(event.actor)
        acted = acted_for or user["party_id"]
        items.append({**event_shown(event), "user_id": user_id, "acted_for": acted})
    who: AuditUser = {
        "id": user["id"],
        "email": user["email"],
        "role": user["role"],
        "party_id": user["party_id"],
    }
    return who, items, nxt
