"""A user's in-app inbox: the notices the fan-out derived for them, newest first."""

from __future__ import annotations

from market.adapters.repositories import notify_outbox as outbox
from market.adapters.repositories.notify_models import NotificationView
from market.services.kernel.actor import Actor
from market.services.kernel.errors import NotFoundError
from market.services.kernel.paging import split_page
from market.services.kernel.reads import Engine
from market.services.notify import fanout


def list_notifications(
    engine: Engine, actor: Actor, before: int | None, limit: int, unread_only: bool = False
) -> tuple[list[NotificationView], int | None]:
    """Keyset pages by event seq, newest first; `next` is the `before` of the next page."""
    fanout.catch_up(engine)
    views = outbox.notifications_page(engine, actor.user_id, before, limit + 1, unread_only)
    return split_page(views, limit, lambda v: v["seq"])


def mark_read(engine: Engine, actor: Actor, notification_id: str) -> NotificationView:
    """Idempotent: a notice read twice keeps its first read_at."""
    view = outbox.mark_notification_read(engine, actor.user_id, notification_id)
    if view is None:
        # Someone else's notice answers as one that does not exist.
        raise NotFoundError(f"Notification {notification_id} does not exist.", {})
    return view


def unread_count(engine: Engine, actor: Actor) -> int:
    return outbox.unread_count(engine, actor.user_id)
