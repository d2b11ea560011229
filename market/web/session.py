"""The signed-in user of the pages: an Actor behind Flask-Login."""

from __future__ import annotations

from flask import current_app
from flask_login import UserMixin

from market.services import identity
from market.services.actor import Actor


class WebUser(UserMixin):  # type: ignore[misc]
    def __init__(self, actor: Actor, email: str) -> None:
        self.actor = actor
        self.email = email

    def get_id(self) -> str:
        return self.actor.user_id

    @property
    def role(self) -> str:
        return self.actor.role


def load_user(user_id: str) -> WebUser | None:
    engine = current_app.extensions["market.engine"]
    actor = identity.actor_for_user_id(engine, user_id)
    if actor is None:
        return None
    return WebUser(actor, identity.user_email(engine, user_id) or "")
