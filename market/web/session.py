"""The signed-in user of the pages: an Actor behind Flask-Login."""

from __future__ import annotations

from datetime import timedelta

from flask import Flask, Request, Response, current_app, g, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_login import UserMixin
from sqlalchemy.exc import InterfaceError, OperationalError
from structlog.contextvars import bind_contextvars

from market.services.identity import identity, web_sessions
from market.services.kernel.actor import Actor


class WebUser(UserMixin):  # type: ignore[misc]
    def __init__(self, actor: Actor, email: str) -> None:
        self.actor = actor
        self.email = email

    def get_id(self) -> str:
        return self.actor.user_id

    @property
    def role(self) -> str:
        return self.actor.role


def session_limits() -> web_sessions.Limits:
    return web_sessions.Limits(
        idle=timedelta(minutes=current_app.config["SESSION_IDLE_MINUTES"]),
        absolute=timedelta(hours=current_app.config["SESSION_MAX_HOURS"]),
    )


def load_user(user_id: str) -> WebUser | None:
    """The cookie's user, only while its server-side session lives (not revoked, not idle
    past SESSION_IDLE_MINUTES, not older than SESSION_MAX_HOURS)."""
    engine = current_app.extensions["market.engine"]
    sid = session.get("sid")
    if not isinstance(sid, str) or g.get("database_down"):
        return None
    try:
        hasher = current_app.extensions["market.token_hasher"]
        if web_sessions.user_for(engine, hasher, sid, session_limits()) != user_id:
            return None
    except (OperationalError, InterfaceError):
        # The 503 page renders without the user (Flask-Login would ask again for it).
        g.database_down = True
        raise
    actor = identity.actor_for_user_id(engine, user_id)
    if actor is None:
        return None
    bind_contextvars(user_id=user_id)  # the request's log line names the user
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
