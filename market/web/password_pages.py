"""Forgot password: ask for a link (the same answer for every address), then set a new
password from it (services/identity/password_reset.py)."""

from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.services.identity import password_reset, throttle
from market.web.base import bp, engine, token_hasher

SENT = (
    "If an account uses that address, a link to reset its password is on its way. "
    "It works once, for 30 minutes."
)


@bp.route("/password/forgot", methods=["GET", "POST"], endpoint="forgot_password")
def forgot_password() -> ResponseReturnValue:
    if request.method == "POST":
        try:
            password_reset.request_reset(
                engine(), token_hasher(), request.form.get("email", ""), request.remote_addr
            )
        except throttle.TooManyAttemptsError as e:
            response = current_app.make_response(
                (render_template("password_forgot.html", sent=None, error=e.message), 429)
            )
            response.headers["Retry-After"] = str(e.retry_after)
            return response
        return render_template("password_forgot.html", sent=SENT)
    return render_template("password_forgot.html", sent=None)


@bp.route("/password/reset/<token>", methods=["GET", "POST"], endpoint="reset_password")
def reset_password(token: str) -> ResponseReturnValue:
    try:
        if request.method == "POST":
            password_reset.reset_password(
                engine(),
                token_hasher(),
                token,
                request.form.get("password", ""),
                request.form.get("confirm", ""),
            )
            flash("Your password is changed. Sign in with it.", "info")
            return redirect(url_for("pages.login"))
        password_reset.check_link(engine(), token_hasher(), token)
    except password_reset.ResetLinkError as e:
        return render_template("password_reset.html", error=e.message, usable=False), 400
    except DomainError as e:
        return render_template("password_reset.html", error=e.message, usable=True), 400
    return render_template("password_reset.html", error=None, usable=True)
