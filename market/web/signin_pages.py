"""Sign-in (the password and, for an enrolled user, the TOTP code, in one form) and
sign-out. The form always shows the code field and a refusal never says which part was
wrong (signin.sign_in). The single sign-on's callback, whose password the identity
provider checked, asks for the code in a second step (`/login/code`).

A complete sign-in starts a server-side session (services/web_sessions) whose secret the
signed cookie carries; the cookie's old contents are dropped first (no session fixation).
Between the two steps the cookie holds only who passed the password, for 5 minutes.
"""

from __future__ import annotations

import time
import unicodedata
from urllib.parse import urlsplit

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_user, logout_user

from market.domain.commands.identity import SignInAttempt
from market.domain.errors import DomainError
from market.services.identity import identity, signin, web_sessions
from market.services.kernel.actor import Actor
from market.validation.error_codes import status_of
from market.web.base import bp, engine, token_hasher
from market.web.session import WebUser

_STEP_SECONDS = 300


def _policy() -> signin.SignInPolicy:
    return signin.policy_from(current_app.config)


def same_site_path(target: str) -> str | None:
    """`target` if it is a path on this site, else None (the login form must not be an
    open redirect). Browsers drop tabs and newlines from a URL and read `\\` as `/`, so
    `/\t/evil.example` and `/\\evil.example` would leave the site: any control or
    invisible character, any backslash, and anything that is not one leading `/` followed
    by a path are refused."""
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in target):
        return None
    if " " in target[:2] or len(target) > 2000:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    return target


def _safe_next() -> str:
    return same_site_path(request.args.get("next", "")) or url_for("pages.home")


def complete(actor: Actor, email: str) -> ResponseReturnValue:
    """Signed in: a new server-side session (also for the single sign-on's callback)."""
    signin.succeeded(engine(), email)
    session.clear()
    session["sid"] = web_sessions.start(engine(), token_hasher(), actor.user_id)
    login_user(WebUser(actor, email))
    return redirect(_safe_next())


def _refused(e: DomainError, template: str, email: str) -> ResponseReturnValue:
    flash(e.message, "error")
    response = current_app.make_response((render_template(template, email=email), status_of(e)))
    retry = getattr(e, "retry_after", None)
    if retry:
        response.headers["Retry-After"] = str(retry)
    return response


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    if request.method != "POST":
        return render_template("login.html", email="")
    email = request.form.get("email", "").strip().lower()
    password = request.form.get("password", "")
    code = request.form.get("code", "").strip() or None
    try:
        attempt = SignInAttempt(email, request.remote_addr)
        actor = signin.sign_in(engine(), attempt, password, code, _policy())
    except DomainError as e:
        return _refused(e, "login.html", email)
    return complete(actor, email)


def ask_second_factor(actor: Actor, email: str) -> ResponseReturnValue:
    session.clear()
    session["mfa_pending"] = {"user_id": actor.user_id, "email": email, "at": int(time.time())}
    return redirect(url_for("pages.login_code", next=request.args.get("next")))


def _pending() -> dict[str, object] | None:
    pending = session.get("mfa_pending")
    if not isinstance(pending, dict) or time.time() - int(pending.get("at", 0)) > _STEP_SECONDS:
        return None
    return pending


@bp.route("/login/code", methods=["GET", "POST"])
def login_code() -> ResponseReturnValue:
    if current_user.is_authenticated:
        return redirect(url_for("pages.home"))
    pending = _pending()
    if pending is None:
        flash("Sign in with your password first.", "error")
        return redirect(url_for("pages.login"))
    email = str(pending["email"])
    if request.method != "POST":
        return render_template("login_code.html", email=email)
    actor = identity.actor_for_user_id(engine(), str(pending["user_id"]))
    if actor is None:
        session.clear()
        return redirect(url_for("pages.login"))
    code = request.form.get("code", "")
    try:
        attempt = SignInAttempt(email, request.remote_addr)
        signin.second_factor(engine(), actor, attempt, code, _policy())
    except DomainError as e:
        return _refused(e, "login_code.html", email)
    return complete(actor, email)


@bp.post("/logout")
def logout() -> ResponseReturnValue:
    sid = session.get("sid")
    if isinstance(sid, str):
        web_sessions.revoke(engine(), token_hasher(), sid)
    logout_user()
    session.clear()
    flash("You are signed out.", "info")
    return redirect(url_for("pages.login"))
