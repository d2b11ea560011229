"""A party's users (issue 28 item 9, issue 29 item 1): the page of one party (its users,
their roles, two-step sign-in, open invitations), the owner's invite form and
deactivation (review-then-confirm), the set-a-password page an e-mailed link opens, and
the Authority's second-factor reset. Each refusal shows beside its field."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.identity import InviteUser
from market.domain.errors import DomainError
from market.services.identity import accounts, invitations
from market.services.kernel.actor import AUTHORITY, PARTY_ROLES
from market.validation.error_codes import status_of
from market.web import confirm
from market.web.base import actor, bp, engine, roles_required, token_hasher
from market.web.fields import Fields


def _render(party_id: str, f: Fields | None = None, status: int = 200) -> ResponseReturnValue:
    users = accounts.party_users(engine(), actor(), party_id)
    me = actor()
    manages = me.role == AUTHORITY or (me.party_id == party_id and me.party_role == "owner")
    page = render_template(
        "party_users.html",
        users=users,
        party_id=party_id,
        roles=PARTY_ROLES,
        manages=manages,
        form=request.form,
    )
    return page, status


@bp.get("/party/users", endpoint="party_users")
@roles_required("participant")
def party_users() -> ResponseReturnValue:
    return _render(actor().party_id or "")


@bp.get("/authority/parties/<party_id>/users", endpoint="authority_party_users")
@roles_required("authority", "auditor")
def authority_party_users(party_id: str) -> ResponseReturnValue:
    return _render(party_id)


def _back(party_id: str) -> str:
    if actor().role == AUTHORITY:
        return url_for("pages.authority_party_users", party_id=party_id)
    return url_for("pages.party_users")


@bp.post("/parties/<party_id>/users/invite", endpoint="invite_user")
@roles_required("authority", "participant")
def invite_user(party_id: str) -> ResponseReturnValue:
    f = Fields(request.form)
    email, role = f.text("email"), f.text("role")
    if email is None:
        f.errors["email"] = "Give the address the invitation goes to."
    if role not in PARTY_ROLES:
        f.errors["role"] = "Choose owner, preparer or viewer."
    if not f.ok:
        return _render(party_id, f, f.refuse())
    try:
        invited = InviteUser(party_id, email or "", role or "")
        user, _ = invitations.invite(engine(), token_hasher(), actor(), invited)
    except DomainError as e:
        f.errors[str(e.details.get("field") or "email")] = e.message
        return _render(party_id, f, f.refuse() if status_of(e) == 422 else status_of(e))
    flash(f"{user['email']} is invited as {user['role']}: the link is on its way.", "success")
    return redirect(_back(party_id))


@bp.post("/users/<user_id>/deactivate", endpoint="deactivate_user")
@roles_required("authority", "participant")
def deactivate_user(user_id: str) -> ResponseReturnValue:
    f = Fields(request.form)
    party_id, reason = request.form.get("party_id", ""), f.text("reason")
    if reason is None:
        f.errors["reason"] = "Say why the account is deactivated."
        return _render(party_id, f, f.refuse())
    if not confirm.confirmed():
        try:
            accounts.may_deactivate(engine(), actor(), user_id)
        except DomainError as e:
            flash(e.message, "error")
            return redirect(_back(party_id)) if status_of(e) < 403 else abort(status_of(e))
        return confirm.review(
            title="Deactivate a user",
            action=url_for("pages.deactivate_user", user_id=user_id),
            lines=[("User", request.form.get("email", user_id)), ("Reason", reason)],
            carry={"reason": reason, "party_id": party_id},
            button="Deactivate and sign them out now",
            back=_back(party_id),
        )
    try:
        done = accounts.deactivate(engine(), actor(), user_id, reason)
    except DomainError as e:
        flash(e.message, "error")
    else:
        flash(f"Deactivated; {done['sessions_ended']} session(s) ended.", "info")
    return redirect(_back(party_id))


@bp.post("/authority/users/<user_id>/mfa-reset", endpoint="reset_user_mfa")
@roles_required("authority")
def reset_user_mfa(user_id: str) -> ResponseReturnValue:
    reason = (request.form.get("reason") or "").strip()
    if not confirm.confirmed():
        if not reason:
            flash("Say why the second factor is reset.", "error")
            return redirect(url_for("pages.user_admin"))
        return confirm.review(
            title="Reset two-step sign-in",
            action=url_for("pages.reset_user_mfa", user_id=user_id),
            lines=[("User", request.form.get("email", user_id)), ("Reason", reason)],
            carry={"reason": reason},
            button="Reset their second factor",
            back=url_for("pages.user_admin"),
        )
    try:
        accounts.reset_mfa(engine(), actor(), user_id, reason)
    except DomainError as e:
        flash(e.message, "error")
    else:
        flash("Two-step sign-in is reset: they set it up again.", "info")
    return redirect(url_for("pages.user_admin"))


@bp.get("/account/set-password/<token>", endpoint="set_password")
def set_password(token: str) -> ResponseReturnValue:
    try:
        found = invitations.check_invite(engine(), token_hasher(), token)
    except DomainError as e:
        return render_template("set_password.html", problem=e.message, token=token), 404
    return render_template("set_password.html", email=found["email"], token=token, problem=None)


@bp.post("/account/set-password/<token>", endpoint="set_password_post")
def set_password_post(token: str) -> ResponseReturnValue:
    f = Fields(request.form)
    try:
        found = invitations.check_invite(engine(), token_hasher(), token)
        invitations.accept_invite(
            engine(),
            token_hasher(),
            token,
            request.form.get("password", ""),
            request.form.get("password_again", ""),
        )
    except DomainError as e:
        if e.code == "link_invalid":
            return render_template("set_password.html", problem=e.message, token=token), 400
        f.errors[str(e.details.get("field") or "password")] = e.message
        status = f.refuse()
        page = render_template("set_password.html", email=found["email"], token=token, problem=None)
        return page, status
    flash("Your password is set: sign in.", "success")
    return redirect(url_for("pages.login"))
