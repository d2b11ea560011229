"""The closing record page (PRODUCT.md 8.3): the signed-in party's transfers with their
payment and receipt; the buyer records its payment and the seller confirms receipt here."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.services import funding, runner, trading
from market.services.uow import ReadOnly
from market.web import forms
from market.web.base import actor, bp, engine, roles_required


def _render(status: int = 200) -> ResponseReturnValue:
    who = actor()
    with ReadOnly(engine()) as conn:
        transfers, _ = trading.list_transfers(conn, who, None, None, 200)
        rows = [(t, funding.funding_view(conn, t)) for t in reversed(transfers)]
    return render_template("closing.html", rows=rows, form=request.form), status


@bp.get("/closing")
@roles_required("authority", "participant", "auditor")
def closing() -> ResponseReturnValue:
    return _render()


@bp.post("/closing/<transfer_id>/payment", endpoint="record_payment")
@roles_required("participant")
def record_payment(transfer_id: str) -> ResponseReturnValue:
    who, form = actor(), request.form

    def act() -> Any:
        reference = forms.required_text(form, "reference", "The payment reference")
        amount = forms.required_cents(form, "amount", "The amount paid")
        paid_on = forms.day(form, "paid_on", "The payment date")
        return runner.run(
            engine(),
            lambda uow: funding.record_payment(uow, who, transfer_id, reference, amount, paid_on),
        )

    ok, view, status = forms.attempt(act)
    if not ok:
        return _render(status)
    flash(f"Payment of {forms.dollars(view['payment']['amount_cents'])} recorded.", "success")
    return redirect(url_for("pages.closing"))


@bp.post("/closing/<transfer_id>/receipt", endpoint="confirm_receipt")
@roles_required("participant")
def confirm_receipt(transfer_id: str) -> ResponseReturnValue:
    who = actor()
    ok, view, status = forms.attempt(
        lambda: runner.run(
            engine(), lambda uow: funding.confirm_receipt(uow, who, transfer_id, None)
        )
    )
    if not ok:
        return _render(status)
    flash(f"Receipt of {forms.dollars(view['payment']['amount_cents'])} confirmed.", "success")
    return redirect(url_for("pages.closing"))
