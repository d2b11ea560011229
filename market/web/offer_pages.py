"""Counter-offers in the pages (issue 28 item 3): the seller answers a buyer's offer with
its own amount, price in cents on the dollar and optional last day, on a page of its own
(`/seller/offers/<id>/counter`, from the Selling desk);
the buyer accepts or declines that counter from its Holdings desk. Each is reviewed, then
confirmed; a refusal is shown beside its field, and nothing is written."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.trading import CounterOffer
from market.services.kernel import lookups, runner
from market.services.kernel.uow import ReadOnly
from market.services.trading import trading
from market.validation import CounterIn
from market.web import buyer_pages, confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields
from market.web.filters import per_dollar


def _terms(price_cents: int, amount_cents: int, expires_on: str | None) -> str:
    until = f", open through {expires_on}" if expires_on else ", with no last day"
    return (
        f"{per_dollar(price_cents, amount_cents)}: {forms.dollars(price_cents)} for "
        f"{forms.dollars(amount_cents)} of credit{until}"
    )


def _offer(offer_id: str) -> dict[str, Any]:
    """The offer as its seller or buyer reads it (another party: 404, as unknown)."""
    who = actor()
    with ReadOnly(engine()) as conn:
        offer = trading.offer_view(conn, offer_id)
        names = lookups.names_of(conn, [offer["buyer_party_id"], offer["seller_party_id"]])
        numbers = lookups.numbers_of(conn, [offer["certificate_id"]])
    if who.party_id not in (offer["seller_party_id"], offer["buyer_party_id"]):
        abort(404)
    return offer | {
        "buyer_name": names.get(offer["buyer_party_id"], "the buyer"),
        "seller_name": names.get(offer["seller_party_id"], "the seller"),
        "certificate_number": numbers.get(offer["certificate_id"], "the certificate"),
    }


def _counter_form(offer_id: str, status: int = 200) -> ResponseReturnValue:
    offer = _offer(offer_id)
    actor().require_party(offer["seller_party_id"])
    page = render_template(
        "counter.html", offer=offer, form=request.form, errors=forms.field_errors()
    )
    return page, status


@bp.get("/seller/offers/<offer_id>/counter", endpoint="counter_offer")
@roles_required("participant")
def counter_form(offer_id: str) -> ResponseReturnValue:
    return _counter_form(offer_id)


@bp.post("/seller/offers/<offer_id>/counter", endpoint="counter_offer_post")
@roles_required("participant")
def counter_offer(offer_id: str) -> ResponseReturnValue:
    """The amount in dollars, the price in cents on the dollar (to whole cents, rounded
    up), an optional last day; the API's CounterIn checks them, the service the rest."""
    who, rules, f = actor(), ruleset(), Fields(request.form)
    amount = f.cents("amount", "The amount of credit")
    data = {"amount_cents": amount, "price_cents": f.price("per_dollar", "The price", amount)}
    expires_on: date | None = f.day("expires_on", "The last day")
    loaded = f.load(CounterIn(), data, {"amount_cents": "amount", "price_cents": "per_dollar"})
    if not f.ok:
        return _counter_form(offer_id, f.refuse())
    if not confirm.confirmed():
        offer = _offer(offer_id)
        who.require_party(offer["seller_party_id"])
        last = expires_on.isoformat() if expires_on else None
        return confirm.review(
            title=f"Counter {offer['buyer_name']}'s offer on {offer['certificate_number']}",
            action=url_for("pages.counter_offer_post", offer_id=offer_id),
            lines=[
                ("Buyer", offer["buyer_name"]),
                ("Certificate", offer["certificate_number"]),
                (
                    "Their offer",
                    _terms(offer["price_cents"], offer["amount_cents"], offer["expires_on"]),
                ),
                ("Your counter", _terms(loaded["price_cents"], loaded["amount_cents"], last)),
            ],
            carry={k: request.form.get(k, "") for k in ("amount", "per_dollar", "expires_on")},
            button="Confirm: send the counter-offer",
            back=url_for("pages.counter_offer", offer_id=offer_id),
            warning="Sending records an OFFER_COUNTERED event: the buyer may accept it, which "
            "proposes the transfer on these terms, or decline it. You can no longer accept "
            "their original offer.",
            danger=False,
        )
    return forms.finish(
        lambda: runner.run(
            engine(),
            lambda uow: trading.counter_offer(
                uow,
                who,
                CounterOffer(offer_id, loaded["amount_cents"], loaded["price_cents"], expires_on),
                rules,
            ),
        ),
        lambda x: "Counter-offer sent: "
        + _terms(x["counter_price_cents"], x["counter_amount_cents"], x["counter_expires_on"])
        + ".",
        lambda status: _counter_form(offer_id, status),
        "pages.seller",
    )


DECISIONS = ("accept", "decline")


@bp.post("/buyer/offers/<offer_id>/counter/<decision>", endpoint="answer_counter")
@roles_required("participant")
def answer_counter(offer_id: str, decision: str) -> ResponseReturnValue:
    who, rules = actor(), ruleset()
    if decision not in DECISIONS:
        abort(404)
    if not confirm.confirmed():
        offer = _offer(offer_id)
        who.require_party(offer["buyer_party_id"])
        terms = _terms(
            offer["counter_price_cents"] or 0,
            offer["counter_amount_cents"] or offer["amount_cents"],
            offer["counter_expires_on"],
        )
        accepting = decision == "accept"
        return confirm.review(
            title=f"{decision.title()} {offer['seller_name']}'s counter-offer",
            action=url_for("pages.answer_counter", offer_id=offer_id, decision=decision),
            lines=[
                ("Seller", offer["seller_name"]),
                ("Certificate", offer["certificate_number"]),
                ("Your offer", _terms(offer["price_cents"], offer["amount_cents"], None)),
                ("Their counter", terms),
            ],
            carry={},
            button=f"Confirm: {decision} the counter-offer",
            back=url_for("pages.buyer"),
            warning="Accepting proposes the transfer on the counter's terms; it goes to the "
            "Authority for approval."
            if accepting
            else "Declining closes the offer; you may make a new one on the market.",
            danger=not accepting,
        )
    if decision == "decline":
        return forms.finish(
            lambda: runner.run(engine(), lambda uow: trading.decline_counter(uow, who, offer_id)),
            lambda x: "Counter-offer declined; the offer is closed.",
            buyer_pages.render_holdings,
            "pages.buyer",
        )
    ok, offer, status = forms.attempt(
        lambda: runner.run(engine(), lambda uow: trading.accept_counter(uow, who, offer_id, rules))
    )
    if not ok:
        return buyer_pages.render_holdings(status)
    flash(
        "Counter-offer accepted: "
        + _terms(offer["counter_price_cents"], offer["counter_amount_cents"], None)
        + ". The transfer now awaits the Authority's approval.",
        "success",
    )
    return redirect(url_for("pages.deal_transfer", transfer_id=offer["transfer_id"]))
