"""The Authority's desk: the approval queue with every rule check in words, approve and
reject; certificate issuance; recapture."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.services import (
    certificates,
    desk_queries,
    pages_queries,
    parties,
    recaptures,
    runner,
    trading,
)
from market.services.trading import today
from market.services.uow import ReadOnly
from market.web import forms
from market.web.pages import actor, bp, engine, roles_required, ruleset

ISSUABLE = [p.value for p in certificates.ISSUABLE]
PROGRAMS = ["BRRAG", "UTH", "DM_GIT", "DM_CBT", "TECH"]
FUNDS = {
    "general_fund": "the General Fund",
    "property_tax_relief_fund": "the Property Tax Relief Fund",
}


QUEUE_PAGE = 25


def _render(status: int = 200) -> ResponseReturnValue:
    """The approval queue 25 at a time, oldest first (`?queue_after=` pages on)."""
    with ReadOnly(engine()) as conn:
        queue, queue_next = pages_queries.approval_queue(
            conn, actor(), ruleset(), today(), request.args.get("queue_after", type=int), QUEUE_PAGE
        )
        waiting = pages_queries.pending_count(conn)
        party_list, _ = parties.list_parties(conn, actor(), None, 500)
        names = {p["id"]: p["name"] for p in party_list}
        names |= desk_queries.names_of(
            conn, [p for t in queue for p in (t["seller_party_id"], t["buyer_party_id"])]
        )
    return (
        render_template(
            "authority.html",
            queue=queue,
            queue_next=queue_next,
            waiting=waiting,
            names=names,
            parties=party_list,
            issuable=ISSUABLE,
            programs=PROGRAMS,
            today=today(),
            form=request.form,
        ),
        status,
    )


@bp.get("/authority", endpoint="authority")
@roles_required("authority")
def authority_page() -> ResponseReturnValue:
    return _render()


def _done(message: str) -> ResponseReturnValue:
    flash(message, "success")
    return redirect(url_for("pages.authority"))


@bp.post("/authority/transfers/<transfer_id>/approve", endpoint="approve_transfer")
@roles_required("authority")
def approve_transfer(transfer_id: str) -> ResponseReturnValue:
    who, rules, on = actor(), ruleset(), today()
    ok, t, status = forms.attempt(
        lambda: runner.run(
            engine(),
            lambda uow: trading.approve_transfer(uow, who, transfer_id, rules, on),
            rows_first=True,
        )
    )
    if not ok:
        return _render(status)
    return _done(
        f"Transfer of {forms.dollars(t['amount_cents'])} approved; "
        "the buyer now holds a new certificate."
    )


@bp.post("/authority/transfers/<transfer_id>/reject", endpoint="reject_transfer")
@roles_required("authority")
def reject_transfer(transfer_id: str) -> ResponseReturnValue:
    who = actor()

    def act() -> object:
        reason = forms.required_text(request.form, "reason", "A reason for the rejection")
        return runner.run(
            engine(), lambda uow: trading.reject_transfer(uow, who, transfer_id, reason)
        )

    ok, _, status = forms.attempt(act)
    if not ok:
        return _render(status)
    return _done("Transfer rejected; the parties can see the reason.")


def _brrag_award(form: Any) -> dict[str, Any]:
    """BR-1, BR-2, BR-6: the award's facts, asked of a BRRAG issuance only."""
    if form.get("program") != "BRRAG":
        return {}
    since = form.get("nj_operations_since", "").strip()
    return {
        "retained_jobs": forms.integer(form, "retained_jobs", "The retained jobs", required=False),
        "award_years": forms.integer(form, "award_years", "The years covered", required=False),
        "nj_operations_since": forms.day(form, "nj_operations_since", "Operating since")
        if since
        else None,
        "cannot_use_before_expiry": form.get("cannot_use_before_expiry") == "yes",
    }


@bp.post("/authority/certificates", endpoint="issue_certificate")
@roles_required("authority")
def issue_certificate() -> ResponseReturnValue:
    who, rules, form = actor(), ruleset(), request.form

    def act() -> Any:
        new = certificates.NewCertificate(
            program=forms.required_text(form, "program", "The program"),
            holder_party_id=forms.required_text(form, "holder_party_id", "The holder"),
            face_cents=forms.required_cents(form, "face", "The face amount"),
            fiscal_year=forms.required_int(form, "fiscal_year", "The fiscal year"),
            credit_year=forms.integer(form, "credit_year", "The credit year", required=False),
            **_brrag_award(form),
        )
        return runner.run(
            engine(), lambda uow: certificates.issue_certificate(uow, who, new, rules)
        )

    ok, cert, status = forms.attempt(act)
    if not ok:
        return _render(status)
    queued = f", {forms.dollars(cert['queued_cents'])} queued" if cert["queued_cents"] else ""
    return _done(f"Certificate {cert['number']} issued ({cert['status']}{queued}).")


@bp.post("/authority/recaptures", endpoint="assess_recapture")
@roles_required("authority")
def assess_recapture() -> ResponseReturnValue:
    who, form = actor(), request.form

    def act() -> Any:
        new = recaptures.NewRecapture(
            party_id=forms.required_text(form, "party_id", "The party"),
            amount_cents=forms.required_cents(form, "amount", "The amount"),
            reason=forms.required_text(form, "reason", "The reason"),
            certificate_id=forms.text(form, "certificate_id", "Certificate", required=False),
            program=forms.text(form, "program", "Program", required=False),
        )
        return runner.run(engine(), lambda uow: recaptures.assess_recapture(uow, who, new))

    ok, r, status = forms.attempt(act)
    if not ok:
        return _render(status)
    return _done(
        f"Recapture of {forms.dollars(r['amount_cents'])} assessed; "
        f"it goes to {FUNDS.get(r['fund'], r['fund'])}."
    )
