"""A user's in-app inbox: the notices the fan-out derived for them, newest first."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, func, select, update

from market.adapters.eventstore import utcnow_iso
from market.adapters.tables import Notification
from market.services.kernel.actor import Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.paging import split_page
from market.services.notify import fanout

notes_t = Notification.__table__  # type: ignore[attr-defined]
FIELDS = ("id", "type", "subject", "body", "link", "created_at", "read_at", "seq")


def _view(row: Any) -> dict[str, Any]:
    return {k: row[k] for k in FIELDS}


def list_notifications(
    engine: Engine, actor: Actor, before: int | None, limit: int, unread_only: bool = False
) -> tuple[list[dict[str, Any]], int | None]:
    """Keyset pages by event seq, newest first; `next` is the `before` of the next page."""
    fanout.catch_up(engine)
    stmt = select(notes_t).where(notes_t.c.user_id == actor.user_id)
    if before is not None:
        stmt = stmt.where(notes_t.c.seq < before)
    if unread_only:
        stmt = stmt.where(notes_t.c.read_at.is_(None))
    stmt = stmt.order_by(notes_t.c.seq.desc()).limit(limit + 1)
    with engine.connect() as conn:
        rows = conn.execute(stmt).mappings().all()
    kept, nxt = split_page(rows, limit, lambda r: int(r["seq"]))
    return [_view(r) for r in kept], nxt


def mark_read(engine: Engine, actor: Actor, notification_id: str) -> dict[str, Any]:
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
    return _view(row)


def unread_count(engine: Engine, actor: Actor) -> int:
    stmt = (
        select(func.count())
        .select_from(notes_t)
        .where(notes_t.c.user_id == actor.user_id, notes_t.c.read_at.is_(None))
    )
    with engine.connect() as conn:
        return int(conn.execute(stmt).scalar() or 0)
