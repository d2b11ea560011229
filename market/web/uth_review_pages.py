"""The Authority records a UTH annual review from an original award's certificate page
(UTH-7, UTH-11, UTH-26): one tax period, one finding; a refusal re-renders the page with
the reason and writes nothing."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from market.services.casefiles import uth_fees
from market.services.kernel import runner
from market.web import forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.certificate_pages import render_certificate


@bp.post("/authority/certificates/<certificate_id>/reviews", endpoint="record_uth_review")
@roles_required("authority")
def record_uth_review(certificate_id: str) -> ResponseReturnValue:
    who, rules, form = actor(), ruleset(), request.form

    def act() -> Any:
        period = forms.required_int(form, "tax_period", "The tax period")
        finding = forms.required_text(form, "finding", "The finding")
        return runner.run(
            engine(),
            lambda uow: uth_fees.record_review(uow, who, certificate_id, period, finding, rules),
        )

    ok, cert, status = forms.attempt(act)
    if not ok:
        return render_certificate(certificate_id, status)
    flash(summary(cert["review"], cert["balance_cents"]), "success")
    return redirect(url_for("pages.certificate", certificate_id=certificate_id))


def summary(review: dict[str, Any], balance_cents: int) -> str:
    """What the review did, in words, from the UTH_REVIEW_RECORDED payload."""
    periods = review["periods"]
    which = (
        f"Tax period {periods[0]}"
        if len(periods) == 1
        else f"Tax periods {periods[0]} to {periods[-1]}"
    )
    outcome, cut = review["review"], review["cut_cents"]
    if outcome == "reduced":
        said = f"{which} reduced by {forms.dollars(cut)}" if cut else f"{which} reduced"
    elif outcome == "forfeited":
        said = f"{which} forfeited ({forms.dollars(cut)} cut)" if cut else f"{which} forfeited"
    else:
        said = f"{which} {outcome}"
    if outcome in ("reduced", "forfeited") and not cut:
        said += "; nothing unsold was left to cut"
    kept = sum(int(t.get("cut_cents", 0)) for t in review["tax_periods"] if t["period"] in periods)
    if outcome == "restored" and kept:
        said += f"; the {forms.dollars(kept)} already cut is not given back"
    buyers = len(review["descendants"])
    if buyers:
        tranches = "1 buyer's tranche" if buyers == 1 else f"{buyers} buyers' tranches"
        if outcome == "approved":  # only conditional tranches are touched (UTH-27)
            said += f"; {tranches} bought before the review may now be applied"
        elif outcome == "restored":
            said += f"; {tranches} released from the freeze"
        elif review["transferred_tranche_effect"] == "freeze":
            said += f"; {tranches} frozen pending a determination"
        else:
            said += f"; {tranches} flagged at risk (the buyers may still use them)"
    return f"{said}. Balance now {forms.dollars(balance_cents)}."
