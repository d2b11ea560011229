"""The closing record page (PRODUCT.md 8.3): the signed-in party's transfers with their
payment and receipt; the buyer records its payment and the seller confirms receipt here."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.trading import RecordPayment
from market.services.kernel import lookups, runner
from market.services.kernel.uow import ReadOnly
from market.services.trading import funding, trading
from market.validation import PaymentIn
from market.web import forms
from market.web.base import actor, bp, engine, roles_required
from market.web.deal_pages import from_deal_room, render_transfer_room
from market.web.fields import Fields
from market.web.price_chart import PROGRAM_NAMES


def _render(status: int = 200) -> ResponseReturnValue:
    if from_deal_room():
        return render_transfer_room((request.view_args or {})["transfer_id"], status)
    who = actor()
    with ReadOnly(engine()) as conn:
        transfers, _ = trading.list_transfers(conn, who, None, None, 200)
        rows = [(t, funding.funding_view(conn, t)) for t in reversed(transfers)]
        # The parties and certificates by name and number, of the rows shown only.
        names = lookups.names_of(
            conn, [p for t in transfers for p in (t["seller_party_id"], t["buyer_party_id"])]
        )
        numbers = lookups.numbers_of(conn, [t["certificate_id"] for t in transfers])
    # A refused payment form is marked in its own row only (one form per transfer).
    posted = (request.view_args or {}).get("transfer_id") if request.method == "POST" else None
    page = render_template(
        "closing.html",
        rows=rows,
        form=request.form,
        posted=posted,
        names=names,
        numbers=numbers,
        programs=PROGRAM_NAMES,
    )
    return page, status


@bp.get("/closing")
@roles_required("authority", "participant", "auditor")
def closing() -> ResponseReturnValue:
    return _render()


@bp.post("/closing/<transfer_id>/payment", endpoint="record_payment")
@roles_required("participant")
def record_payment(transfer_id: str) -> ResponseReturnValue:
    """The API's PaymentIn checks the fields (an amount of $0 is refused beside its field);
    the service then checks the transfer and the payer."""
    who, f = actor(), Fields(request.form)
    data = {
        "reference": f.text("reference"),
        "amount_cents": f.cents("amount", "The amount paid"),
        "paid_on": f.text("paid_on"),
    }
    names = {"reference": "reference", "amount_cents": "amount", "paid_on": "paid_on"}
    payment = f.load(PaymentIn(), data, names)
    if not f.ok:
        return _render(f.refuse())
    ok, view, status = forms.attempt(
        lambda: runner.run(
            engine(),
            lambda uow: funding.record_payment(
                uow,
                who,
                RecordPayment(
                    transfer_id, payment["reference"], payment["amount_cents"], payment["paid_on"]
                ),
            ),
        )
    )
    if not ok:
        return _render(status)
    flash(f"Payment of {forms.dollars(view['payment']['amount_cents'])} recorded.", "success")
    return _done(transfer_id)


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
    return _done(transfer_id)


def _done(transfer_id: str) -> ResponseReturnValue:
    if from_deal_room():
        return redirect(url_for("pages.deal_transfer", transfer_id=transfer_id))
    return redirect(url_for("pages.closing"))
