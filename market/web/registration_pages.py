"""Registration pages (issue 29 item 1): the public "Ask to join" form, the landing of the
e-mailed verification link (a button, so a mail scanner's GET spends nothing), and the
Authority's registrations desk, where each request is reviewed beside the parties that
share its tax id or a similar name, then approved or rejected after a review-then-confirm
step (web/confirm.py). The form loads the API's schema; each problem shows by its field."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.services.identity import signin
from market.services.kernel.uow import ReadOnly
from market.services.parties.parties import ENTITY_TYPES, TAX_TYPES
from market.services.registration import applications, registration_views
from market.services.registration.registrations import NewRegistration
from market.validation import RegistrationIn
from market.validation.error_codes import status_of
from market.web import confirm
from market.web.base import actor, bp, engine, roles_required, token_hasher
from market.web.fields import Fields

ROWS = 3  # officer and affiliate rows on the form


def _rows(form: Any, prefix: str, names: tuple[str, ...]) -> list[dict[str, Any]]:
    out = []
    for i in range(ROWS):
        row = {n: (form.get(f"{prefix}-{i}-{n}") or "").strip() or None for n in names}
        if any(row.values()):
            out.append(row)
    return out


def _render_join(status: int = 200) -> ResponseReturnValue:
    return (
        render_template(
            "join.html",
            form=request.form,
            entity_types=ENTITY_TYPES,
            tax_types=TAX_TYPES,
            rows=range(ROWS),
        ),
        status,
    )


@bp.get("/join")
def join() -> ResponseReturnValue:
    return _render_join()


@bp.post("/join")
def join_post() -> ResponseReturnValue:
    form, f = request.form, Fields(request.form)
    data = {
        "legal_name": f.text("legal_name"),
        "tax_id": f.text("tax_id"),
        "nj_tax_registration": f.text("nj_tax_registration"),
        "entity_type": f.text("entity_type"),
        "tax_types": form.getlist("tax_types"),
        "contact_email": f.text("contact_email"),
        "officers": _rows(form, "officer", ("name", "title")),
        "affiliates": _rows(form, "affiliate", ("name", "tax_id", "relationship")),
    }
    names = {k: k for k in data} | {"officers": "officer-0-name", "affiliates": "affiliate-0-name"}
    loaded = f.load(RegistrationIn(), data, names)
    if not f.ok or loaded is None:
        return _render_join(f.refuse())
    try:
        applications.submit(
            engine(),
            token_hasher(),
            NewRegistration(**loaded),
            request.remote_addr,
            signin.policy_from(current_app.config).throttle,
        )
    except DomainError as e:
        field = str(e.details.get("field") or "legal_name")
        f.errors[field] = e.message
        return _render_join(status_of(e) if status_of(e) != 422 else 400)
    return render_template("join_sent.html", email=loaded["contact_email"]), 202


@bp.get("/join/verify/<token>")
def join_verify(token: str) -> ResponseReturnValue:
    try:
        reg_id = applications.registration_for_link(engine(), token_hasher(), token)
    except DomainError as e:
        return render_template("join_status.html", problem=e.message, reg=None), 404
    with ReadOnly(engine()) as conn:
        reg = registration_views.get(conn, reg_id, None)
    return render_template("join_status.html", reg=reg, token=token, problem=None)


@bp.post("/join/verify/<token>")
def join_verify_post(token: str) -> ResponseReturnValue:
    try:
        applications.verify(engine(), token_hasher(), token)
    except DomainError as e:
        flash(e.message, "error")
        return redirect(url_for("pages.join_verify", token=token))
    flash("Your address is confirmed: the Authority will review your request.", "success")
    return redirect(url_for("pages.join_verify", token=token))


@bp.get("/authority/registrations", endpoint="registrations_desk")
@roles_required("authority", "auditor")
def registrations_desk() -> ResponseReturnValue:
    status = request.args.get("status", "submitted")
    with ReadOnly(engine()) as conn:
        rows = registration_views.desk(conn, actor(), status or None)
    return render_template("registrations.html", rows=rows, status=status)


@bp.get("/authority/registrations/<registration_id>", endpoint="registration_review")
@roles_required("authority", "auditor")
def registration_review(registration_id: str) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        reg = registration_views.get(conn, registration_id, actor())
        similar = registration_views.similar(conn, actor(), reg)
    return render_template("registration.html", reg=reg, similar=similar, form=request.form)


@bp.post("/authority/registrations/<registration_id>/approve", endpoint="registration_approve")
@roles_required("authority")
def registration_approve(registration_id: str) -> ResponseReturnValue:
    back = url_for("pages.registration_review", registration_id=registration_id)
    with ReadOnly(engine()) as conn:
        reg = registration_views.get(conn, registration_id, actor())
    if not confirm.confirmed():
        return confirm.review(
            title=f"Approve {reg['legal_name']}",
            action=url_for("pages.registration_approve", registration_id=registration_id),
            lines=[
                ("Party to register", f"{reg['legal_name']} ({reg['tax_id']})"),
                ("First user (owner)", reg["contact_email"]),
                ("E-mail", "a single-use link to choose a password"),
            ],
            carry={},
            button="Approve and register the party",
            back=back,
        )
    try:
        applications.approve(engine(), token_hasher(), actor(), registration_id)
    except DomainError as e:
        flash(e.message, "error")
        return redirect(back)
    flash(f"{reg['legal_name']} is registered; its first user was e-mailed a link.", "success")
    return redirect(url_for("pages.registrations_desk"))


@bp.post("/authority/registrations/<registration_id>/reject", endpoint="registration_reject")
@roles_required("authority")
def registration_reject(registration_id: str) -> ResponseReturnValue:
    f = Fields(request.form)
    reason = f.text("reason")
    if reason is None:
        f.errors["reason"] = "Say why: the business is shown the reason."
    with ReadOnly(engine()) as conn:
        reg = registration_views.get(conn, registration_id, actor())
        if not f.ok:
            status = f.refuse()
            similar = registration_views.similar(conn, actor(), reg)
            page = render_template("registration.html", reg=reg, similar=similar, form=request.form)
            return page, status
    if not confirm.confirmed():
        return confirm.review(
            title=f"Reject {reg['legal_name']}",
            action=url_for("pages.registration_reject", registration_id=registration_id),
            lines=[("Registration", reg["legal_name"]), ("Reason the business sees", reason or "")],
            carry={"reason": reason or ""},
            button="Reject the registration",
            back=url_for("pages.registration_review", registration_id=registration_id),
        )
    try:
        applications.reject(engine(), actor(), registration_id, reason or "")
    except DomainError as e:
        flash(e.message, "error")
    else:
        flash(f"The registration of {reg['legal_name']} is rejected.", "info")
    return redirect(url_for("pages.registrations_desk"))
