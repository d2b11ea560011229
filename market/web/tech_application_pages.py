"""The seller's TECH application from its Selling desk (TB-6): the API's TechApplicationIn
reads the figures; the review rehearses the intake (the benefit and eligibility the rules
give) before the application is filed."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from market.services.tech import tech
from market.validation import TechApplicationIn
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields
from market.web.seller_pages import desk as _render
from market.web.seller_pages import party_id


@bp.post("/seller/tech", endpoint="apply_tech")
@roles_required("participant")
def apply_tech() -> ResponseReturnValue:
    """The API's TechApplicationIn checks the fields (an amount asked of $0 is refused
    beside its field); the service stamps the receipt (TB-6) and tests eligibility."""
    who, rules, f = actor(), ruleset(), Fields(request.form)
    data = {
        "party_id": party_id(),
        "nol_cents": f.cents("nol", "The net operating loss"),
        "allocation_factor": f.text("allocation_factor"),
        "seller_tax_regime": f.text("regime"),
        "rnd_credit_cents": f.cents("rnd", "The R&D credit"),
        "requested_cents": f.cents("requested", "The amount asked", required=False),
    }
    names = {
        "nol_cents": "nol",
        "allocation_factor": "allocation_factor",
        "seller_tax_regime": "regime",
        "rnd_credit_cents": "rnd",
        "requested_cents": "requested",
    }
    loaded = f.load(TechApplicationIn(), data, names)
    if not f.ok:
        return _render(f.refuse())
    new = tech.NewTechApplication(**loaded)

    def outcome(x: dict[str, Any]) -> str:
        return f"benefit {forms.dollars(x['benefit_cents'])}, " + (
            "eligible" if x["eligible"] else "not eligible (" + ", ".join(x["reasons"]) + ")"
        )

    def review_of(x: dict[str, Any]) -> ResponseReturnValue:
        return confirm.review(
            title="File this TECH application",
            action=url_for("pages.apply_tech"),
            lines=[
                ("Fiscal year", f"FY {x['fiscal_year']} (received now, TB-6)"),
                ("Net operating loss", forms.dollars(int(loaded["nol_cents"]))),
                ("Allocation factor", str(loaded["allocation_factor"])),
                ("R&D credit", forms.dollars(int(loaded["rnd_credit_cents"]))),
                ("What the rules give", outcome(x)),
            ],
            carry={
                k: request.form.get(k, "")
                for k in ("nol", "allocation_factor", "regime", "rnd", "requested")
            },
            button="Confirm: file the application",
            back=url_for("pages.seller") + "#tech",
            warning="Filing records TECH_APPLICATION_RECEIVED, stamped with the time of the "
            "confirmation; the fiscal year's allocation reads it as filed.",
            danger=False,
        )

    def done(x: dict[str, Any]) -> ResponseReturnValue:
        flash(f"TECH application received for FY {x['fiscal_year']}: {outcome(x)}.", "success")
        return redirect(url_for("pages.deal_tech", application_id=x["id"]))

    return confirm.rehearsed(
        engine(),
        lambda uow: tech.submit_application(uow, who, rules, new),
        refused=_render,
        review_of=review_of,
        done=done,
    )
