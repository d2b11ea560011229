"""/account: change the password, set up two-step sign-in (TOTP; offered to every role,
required for those in MFA_REQUIRED_ROLES), make new recovery codes."""

from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user, login_user

from market.domain.errors import DomainError
from market.services.identity import accounts, identity, mfa, signin, throttle, web_sessions
from market.validation.error_codes import status_of
from market.web.base import actor, bp, engine, roles_required, token_hasher
from market.web.session import WebUser

ANYONE = ("authority", "participant", "auditor")


def _offered() -> bool:
    """Every role may turn two-step sign-in on (issue 28 item 9)."""
    return True


def _required() -> bool:
    return current_user.role in signin.policy_from(current_app.config).mfa_roles


def render_account(status: int = 200, **extra: object) -> ResponseReturnValue:
    user_id = actor().user_id
    enrolled = mfa.is_enrolled(engine(), user_id)
    secret = None if enrolled else mfa.pending_secret(engine(), user_id)
    uri = mfa.provisioning_uri(secret, current_user.email) if secret else None
    context = {
        "enrolled": enrolled and not extra.get("recovery_codes"),
        "codes_left": mfa.recovery_codes_left(engine(), user_id) if enrolled else 0,
        "offered": _offered(),
        "required": _required(),
        "pending_secret": secret,
        "pending_uri": uri,
        "qr": mfa.qr_svg_data_uri(uri) if uri else None,
        "recovery_codes": None,
    }
    return render_template("account.html", **(context | extra)), status


@bp.get("/account")
@roles_required(*ANYONE)
def account() -> ResponseReturnValue:
    return render_account()


@bp.post("/account/password")
@roles_required(*ANYONE)
def account_password() -> ResponseReturnValue:
    form = request.form
    new = form.get("new_password", "")
    if new != form.get("new_password_again", ""):
        flash("The two new passwords differ.", "error")
        return render_account(400)
    me, email = actor(), current_user.email
    policy = signin.policy_from(current_app.config).throttle
    try:
        throttle.check(engine(), email, request.remote_addr)
        identity.change_password(engine(), me.user_id, form.get("current_password", ""), new)
    except DomainError as e:
        if status_of(e) == 401:  # a wrong current password counts like a failed sign-in
            throttle.record_failure(engine(), email, request.remote_addr, policy)
        flash(e.message, "error")
        return render_account(status_of(e))
    # Every session ended with the old password; this browser gets a fresh one.
    session.clear()
    session["sid"] = web_sessions.start(engine(), token_hasher(), me.user_id)
    login_user(WebUser(me, email))
    flash("Your password is changed. Other sessions and your API tokens were signed out.", "info")
    return redirect(url_for("pages.account"))


@bp.post("/account/mfa")
@roles_required(*ANYONE)
def account_mfa() -> ResponseReturnValue:
    if not _offered():
        flash("Two-step sign-in is not offered for your role.", "error")
        return render_account(403)
    mfa.begin(engine(), actor().user_id)
    return redirect(url_for("pages.account"))


@bp.post("/account/mfa/confirm")
@roles_required(*ANYONE)
def account_mfa_confirm() -> ResponseReturnValue:
    try:
        codes = mfa.confirm(engine(), actor().user_id, request.form.get("code", ""))
    except DomainError as e:
        flash(e.message, "error")
        return render_account(400 if status_of(e) == 401 else status_of(e))
    return render_account(recovery_codes=codes)


@bp.post("/account/recovery-codes")
@roles_required(*ANYONE)
def account_recovery_codes() -> ResponseReturnValue:
    """Ten new recovery codes for a current code; the old ones stop working."""
    try:
        codes = accounts.renew_recovery_codes(
            engine(), actor().user_id, request.form.get("code", "")
        )
    except DomainError as e:
        flash(e.message, "error")
        return render_account(400 if status_of(e) == 401 else status_of(e))
    return render_account(recovery_codes=codes)
