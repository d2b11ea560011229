"""The market: open listings with price per dollar and the program's floor, and offers."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.programs import Program
from market.services import runner, trading
from market.services.uow import ReadOnly
from market.web import forms
from market.web.pages import actor, bp, engine, roles_required, ruleset


def _render(status: int = 200) -> ResponseReturnValue:
    program = request.values.get("program") or None
    if program not in {p.value for p in Program}:
        program = None
    with ReadOnly(engine()) as conn:
        listings, _ = trading.list_listings(conn, actor(), program, None, 200, ruleset())
    return (
        render_template(
            "market.html",
            listings=listings,
            program=program,
            programs=[p.value for p in Program],
            form=request.form,
        ),
        status,
    )


@bp.get("/market", endpoint="market")
@roles_required("authority", "participant", "auditor")
def market_page() -> ResponseReturnValue:
    return _render()


@bp.post("/market/offers", endpoint="make_offer")
@roles_required("participant")
def make_offer() -> ResponseReturnValue:
    form = request.form
    rules = ruleset()

    def act() -> object:
        listing_id = forms.required_text(form, "listing_id", "The listing")
        amount = forms.required_cents(form, "amount", "The amount of credit")
        price = forms.required_cents(form, "price", "The price")
        who = actor()
        return runner.run(
            engine(), lambda uow: trading.make_offer(uow, who, listing_id, amount, price, rules)
        )

    ok, offer, status = forms.attempt(act)
    if not ok:
        return _render(status)
    flash(
        f"Your offer of {forms.dollars(offer['price_cents'])} for "
        f"{forms.dollars(offer['amount_cents'])} of credit was sent to the seller.",
        "success",
    )
    return redirect(url_for("pages.market"))
