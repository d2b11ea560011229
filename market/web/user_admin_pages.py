"""The Authority's users: who can sign in (role, party), creating a user, and resetting a
user's password, which also signs the user's API tokens out. The forms validate with the
shared schemas (market.validation); a password is typed twice and never shown back."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.identity import CreateUser
from market.services.identity import user_admin
from market.services.kernel.actor import PARTICIPANT, ROLES
from market.services.kernel.uow import ReadOnly
from market.services.queries import pickers
from market.validation import NewUserIn, PasswordResetIn
from market.web import forms
from market.web.base import actor, bp, engine, roles_required
from market.web.fields import Fields

SECRET_FIELDS = ("password", "password_again", "new_password", "new_password_again")


def render_users(status: int = 200) -> ResponseReturnValue:
    users = user_admin.list_users(engine(), actor())
    with ReadOnly(engine()) as conn:
        choices = pickers.party_choices(conn)
    # A password the person typed is never sent back in the page.
    kept = {k: v for k, v in request.form.items() if k not in SECRET_FIELDS}
    return (
        render_template(
            "user_admin.html",
            users=users,
            parties=choices,
            roles=ROLES,
            form=kept,
        ),
        status,
    )


@bp.get("/authority/users", endpoint="user_admin")
@roles_required("authority")
def user_admin_page() -> ResponseReturnValue:
    return render_users()


def _same_password(f: Fields, name: str, again: str) -> str:
    password = f.form.get(name) or ""
    if password != (f.form.get(again) or ""):
        f.errors[again] = "The two passwords differ."
    return password


@bp.post("/authority/users", endpoint="create_user")
@roles_required("authority")
def create_user() -> ResponseReturnValue:
    who, form, f = actor(), request.form, Fields(request.form)
    role = form.get("role") or ""
    party_id = None
    if (form.get("party") or "").strip():
        with ReadOnly(engine()) as conn:
            party = f.read("party", lambda: pickers.resolve_party(conn, form["party"]))
        party_id = party["id"] if party else None
    elif role == PARTICIPANT:
        f.errors["party"] = "A participant signs in for a party: choose it from the list."
    password = _same_password(f, "password", "password_again")
    data = {"email": (form.get("email") or "").strip(), "role": role, "password": password}
    if party_id:
        data["party_id"] = party_id
    fields = {"email": "email", "role": "role", "password": "password", "party_id": "party"}
    loaded = f.load(NewUserIn(), data, fields)
    if not f.ok or loaded is None:
        return render_users(f.refuse())
    ok, user, status = forms.attempt(
        lambda: user_admin.create_user(
            engine(),
            who,
            CreateUser(loaded["email"], loaded["role"], loaded["password"], loaded["party_id"]),
        )
    )
    if not ok:
        return render_users(status)
    flash(f"User {user['email']} ({user['role']}) created; they can sign in now.", "success")
    return redirect(url_for("pages.user_admin"))


@bp.post("/authority/users/password", endpoint="reset_user_password")
@roles_required("authority")
def reset_password() -> ResponseReturnValue:
    who, form, f = actor(), request.form, Fields(request.form)
    password = _same_password(f, "new_password", "new_password_again")
    data = {"user_id": form.get("user_id") or "", "password": password}
    fields = {"user_id": "user_id", "password": "new_password"}
    loaded = f.load(PasswordResetIn(), data, fields)
    if not f.ok or loaded is None:
        return render_users(f.refuse())
    ok, done, status = forms.attempt(
        lambda: user_admin.reset_password(engine(), who, loaded["user_id"], loaded["password"])
    )
    if not ok:
        return render_users(status)
    flash(
        f"Password of {done['email']} reset; {done['tokens_revoked']} API token(s) revoked. "
        "Give them the new password by a separate channel.",
        "success",
    )
    return redirect(url_for("pages.user_admin"))
