"""Fees and tax clearance certificates (ADM-1..ADM-4, ADM-11): a party sees what it owes
and why; the Authority records payments and tax clearance certificates, each reviewed,
then confirmed (confirm.py)."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.casefiles import RecordClearance, RecordFeePayment
from market.services.casefiles import clearances, fees
from market.services.kernel import runner
from market.services.kernel.uow import ReadOnly
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset


def _render(status: int = 200) -> ResponseReturnValue:
    who = actor()
    party_id = request.args.get("party_id") or request.form.get("party_id") or None
    with ReadOnly(engine()) as conn:
        items = fees.list_fees(conn, who, party_id)
        shown = party_id or who.party_id
        held = clearances.list_clearances(conn, who, shown) if shown else []
    return (
        render_template(
            "fees.html",
            items=items,
            clearances=held,
            party_id=shown,
            methods=fees.METHODS,
            programs=clearances.PROGRAMS,
            form=request.form,
        ),
        status,
    )


@bp.get("/fees", endpoint="fees")
@roles_required("authority", "participant", "auditor")
def fee_list() -> ResponseReturnValue:
    return _render()


def _day(name: str, label: str) -> date:
    try:
        return date.fromisoformat(request.form.get(name) or "")
    except ValueError:
        raise forms.FormError(f"{label} must be a date.", name) from None


def _review_or_run(
    title: str, lines: list[tuple[str, str]], run: Any, done: str
) -> ResponseReturnValue:
    back = url_for("pages.fees", party_id=request.form.get("party_id") or None)
    if not confirm.confirmed():
        carry = {k: v for k, v in request.form.items() if k not in ("csrf_token", "confirm")}
        return confirm.review(
            title=title,
            action=request.path,
            lines=lines,
            carry=carry,
            button=title,
            back=back,
            warning="This is recorded in the ledger for good.",
        )
    ok, _, status = forms.attempt(lambda: runner.run(engine(), run()))
    if not ok:
        return _render(status)
    flash(done, "success")
    return redirect(back)


@bp.post("/fees/<fee_id>/payment", endpoint="record_fee_payment")
@roles_required("authority")
def record_fee_payment(fee_id: str) -> ResponseReturnValue:
    who, form = actor(), request.form

    def run() -> Any:
        amount = forms.required_cents(form, "amount", "The amount received")
        received = _day("received_on", "Received on")
        method, reference = form.get("method") or "", form.get("reference") or ""
        return lambda uow: fees.record_payment(
            uow, who, RecordFeePayment(fee_id, amount, method, reference, received)
        )

    lines = [
        ("Fee", fee_id),
        ("Amount received", f"${form.get('amount') or ''}"),
        ("Method", form.get("method") or ""),
        ("Reference", form.get("reference") or ""),
        ("Received on", form.get("received_on") or ""),
    ]
    return _review_or_run("Record the payment", lines, run, "Payment recorded.")


@bp.post("/tax-clearances", endpoint="record_tax_clearance")
@roles_required("authority")
def record_tax_clearance() -> ResponseReturnValue:
    who, form, rules = actor(), request.form, ruleset()

    def run() -> Any:
        issued = _day("issued_on", "Issued on")
        party_id, number = form.get("party_id") or "", form.get("certificate_number") or ""
        program, renews = form.get("program") or "", form.get("renews") or None
        return lambda uow: clearances.record_clearance(
            uow, who, rules, RecordClearance(party_id, number, issued, program, renews)
        )

    lines = [
        ("Party", form.get("party_id") or ""),
        ("Certificate", form.get("certificate_number") or ""),
        ("Program", form.get("program") or ""),
        ("Issued on", form.get("issued_on") or ""),
        ("Renews", form.get("renews") or "(a new certificate)"),
    ]
    return _review_or_run("Record the tax clearance", lines, run, "Tax clearance recorded.")
