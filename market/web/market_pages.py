"""The market: open listings with price per dollar and the program's floor, and offers."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.trading import MakeOffer
from market.domain.programs import Program
from market.services.kernel.uow import ReadOnly
from market.services.queries import list_search
from market.services.trading import trading
from market.validation import OfferIn
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields
from market.web.filters import per_dollar

PER_PAGE = 25


def market_query() -> list_search.ListQuery:
    """Search, filter, sort and page from the query string (so a view can be bookmarked
    and the offer form posts back to the same view)."""
    program = request.args.get("program") or None
    return list_search.ListQuery(
        q=(request.args.get("q") or "")[:100],
        program=program if program in {p.value for p in Program} else None,
        sort=request.args.get("sort", "oldest"),
        page=max(1, request.args.get("page", 1, type=int)),
        per_page=PER_PAGE,
    )


def _render(status: int = 200) -> ResponseReturnValue:
    query = market_query()
    with ReadOnly(engine()) as conn:
        page = list_search.search_listings(conn, query, ruleset())
    args = {"q": query.q, "program": query.program or "", "sort": query.sort}
    return (
        render_template(
            "market.html",
            listings=page.items,
            page=page,
            query=query,
            args={k: v for k, v in args.items() if v},
            sorts=list_search.LISTING_SORTS,
            program=query.program,
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
    """The amount in dollars and the price in cents on the dollar (`per_dollar`), which
    comes to whole cents rounded up (offer_terms.price_for); an optional last day
    (`expires_on`). The API's OfferIn checks the amounts (an amount of $0 is refused
    beside its field); the service then checks the listing, the floor and the buyer."""
    who, rules, form, f = actor(), ruleset(), request.form, Fields(request.form)
    listing_id = form.get("listing_id") or ""  # hidden: the service refuses an unknown one
    amount = f.cents("amount", "The amount of credit")
    data = {
        "amount_cents": amount,
        "price_cents": f.price("per_dollar", "The price", amount),
    }
    expires_on = f.day("expires_on", "The last day")
    offer_in = f.load(OfferIn(), data, {"amount_cents": "amount", "price_cents": "per_dollar"})
    if not f.ok:
        return _render(f.refuse())
    kept: dict[str, Any] = request.args.to_dict()

    def offer_words(offer: dict[str, Any]) -> str:
        until = f", open through {offer['expires_on']}" if offer["expires_on"] else ""
        return (
            f"{per_dollar(offer['price_cents'], offer['amount_cents'])} "
            f"({forms.dollars(offer['price_cents'])} for {forms.dollars(offer['amount_cents'])} "
            f"of credit{until})"
        )

    def review_of(offer: dict[str, Any]) -> ResponseReturnValue:
        return confirm.review(
            title="Send this offer",
            action=url_for("pages.make_offer", **kept),
            lines=[
                ("Your offer", offer_words(offer)),
                ("Rules checked", "the floor, the listing and you as a buyer all pass now"),
            ],
            carry={
                k: form.get(k, "") for k in ("listing_id", "amount", "per_dollar", "expires_on")
            },
            button="Confirm: send the offer",
            back=url_for("pages.market", **kept),
            warning="The seller may accept it at once, which binds you to the price; an offer "
            "cannot be withdrawn, only left to expire.",
            danger=False,
        )

    def done(offer: dict[str, Any]) -> ResponseReturnValue:
        flash(
            f"Your offer of {offer_words(offer)} was sent to the seller.",
            f"success:/deals/offers/{offer['id']}",
        )
        return redirect(url_for("pages.market", **kept))

    return confirm.rehearsed(
        engine(),
        lambda uow: trading.make_offer(
            uow,
            who,
            MakeOffer(listing_id, offer_in["amount_cents"], offer_in["price_cents"], expires_on),
            rules,
        ),
        refused=_render,
        review_of=review_of,
        done=done,
    )
