"""A user's in-app inbox: the notices the fan-out derived for them, newest first."""

from __future__ import annotations

from sqlalchemy import Engine, func, select, update

from market.adapters.eventstore import utcnow_iso
from market.adapters.repositories.notify_models import NotificationView, notification_of
from market.adapters.tables import Notification
from market.services.kernel.actor import Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.paging import split_page
from market.services.notify import fanout

notes_t = Notification.__table__  # type: ignore[attr-defined]


def list_notifications(
    engine: Engine, actor: Actor, before: int | None, limit: int, unread_only: bool = False
) -> tuple[list[NotificationView], int | None]:
    """Keyset pages by event seq, newest first; `next` is the `before` of the next page."""
    fanout.catch_up(engine)
    stmt = select(notes_t).where(notes_t.c.user_id == actor.user_id)
    if before is not None:
        stmt = stmt.where(notes_t.c.seq < before)
    if unread_only:
        stmt = stmt.where(notes_t.c.read_at.is_(None))
    stmt = stmt.order_by(notes_t.c.seq.desc()).limit(limit + 1)
    with engine.connect() as conn:
        views = [notification_of(r) for r in conn.execute(stmt).mappings()]
    return split_page(views, limit, lambda v: v["seq"])


def mark_read(engine: Engine, actor: Actor, notification_id: str) -> NotificationView:
    """Idempotent: a notice read twice keeps its first read_at."""
    mine = (notes_t.c.id == notification_id) & (notes_t.c.user_id == actor.user_id)
    with fanout.write_transaction(engine) as conn:
        conn.execute(
            update(notes_t).where(mine, notes_t.c.read_at.is_(None)).values(read_at=utcnow_iso())
        )
        row = conn.execute(select(notes_t).where(mine)).mappings().first()
    if row is None:
        # Someone else's notice answers as one that does not exist.
        raise NotFoundError(f"Notification {notification_id} does not exist.", {})
    return notification_of(row)


def unread_count(engine: Engine, actor: Actor) -> int:
    stmt = (
        select(func.count())
        .select_from(notes_t)
        .where(notes_t.c.user_id == actor.user_id, notes_t.c.read_at.is_(None))
    )
    with engine.connect() as conn:
        return int(conn.execute(stmt).scalar() or 0)
