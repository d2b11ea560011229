"""The signed-in user of the pages: an Actor behind Flask-Login."""

from __future__ import annotations

from flask import Flask, Request, Response, current_app
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
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


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, minus the work a request without a session cookie
    does not need: Flask builds the signing serializer to open every session, even when
    there is no cookie to verify (every API call), and works out every cookie attribute
    before it finds an empty, untouched session has nothing to save. Same results."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if not session and not session.modified:
            # Flask's own answer for an empty, unchanged session (the API's: Flask-Login
            # reads it after every request), without working out the cookie first.
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)
