"""The buyer calculator page and the market page's pre-trade check (PRODUCT.md 8.3).

The calculator is a GET form: it computes and writes nothing. The market page asks
`pretrade_for(listings)` (a template helper) for each listing's check for the signed-in
buyer, shown before it offers."""

from __future__ import annotations

from typing import Any

from flask import render_template, request
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.services.kernel.actor import PARTICIPANT
from market.services.kernel.uow import ReadOnly
from market.services.trading import calculator, pretrade
from market.services.trading.trade_lists import ListingView
from market.validation.error_codes import status_of
from market.web import forms
from market.web.base import actor, bp, engine, roles_required, ruleset

SHOWN_RULES = ("buyer_tax_types", "affiliation", "usable_through", "trading_halt")


@bp.app_context_processor
def _pretrade_helper() -> dict[str, Any]:
    def pretrade_for(listings: list[ListingView]) -> dict[str, list[dict[str, Any]]]:
        who = actor()
        if who.role != PARTICIPANT or who.party_id is None:
            return {}
        with ReadOnly(engine()) as conn:
            found = pretrade.listing_checks(conn, listings, who.party_id, ruleset())
        return {k: [c for c in v if c["rule"] in SHOWN_RULES] for k, v in found.items()}

    return {"pretrade_for": pretrade_for}


def _purchase(args: Any) -> calculator.TechPurchase:
    def number(name: str, label: str) -> int | None:
        return forms.integer(args, name, label, required=False)

    return calculator.TechPurchase(
        amount_cents=forms.required_cents(args, "amount", "The credit bought"),
        price_cents=forms.required_cents(args, "price", "The price"),
        tax_type=args.get("tax_type") or "CBT",
        liability_cents=forms.cents(args, "liability", "The liability", required=False),
        entire_net_income_cents=forms.cents(
            args, "entire_net_income", "Entire net income", required=False
        ),
        allocation_factor=forms.text(args, "allocation_factor", "The factor", required=False),
        other_credits_cents=forms.cents(args, "other_credits", "Other credits", required=False)
        or 0,
        statutory_minimum_cents=forms.cents(
            args, "statutory_minimum", "The statutory minimum", required=False
        )
        or 0,
        first_tax_year=number("first_tax_year", "The first tax year"),
        usable_through=number("usable_through", "The last tax year"),
        certificate_id=forms.text(args, "certificate_id", "The certificate", required=False),
        listing_id=forms.text(args, "listing_id", "The listing", required=False),
    )


@bp.get("/calculator/tech")
@roles_required("authority", "participant", "auditor")
def tech_calculator() -> ResponseReturnValue:
    args = request.args
    result, error, status = None, None, 200
    if "amount" in args:
        try:
            purchase = _purchase(args)
            with ReadOnly(engine()) as conn:
                result = calculator.tech_value(conn, actor(), purchase, ruleset())
        except (DomainError, forms.FormError) as exc:
            error = exc.message
            status = exc.status if isinstance(exc, forms.FormError) else status_of(exc)
    return render_template("calculator.html", args=args, result=result, error=error), status
