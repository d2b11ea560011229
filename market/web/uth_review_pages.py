"""The Authority records a UTH annual review from an original award's certificate page
(UTH-7, UTH-11, UTH-26): one tax period, one finding; a refusal re-renders the page with
the reason and writes nothing."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.certificates import RecordUthReview
from market.services.casefiles import uth_fees
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.certificate_pages import render_certificate
from market.web.uth_labels import finding_labels


@bp.post("/authority/certificates/<certificate_id>/reviews", endpoint="record_uth_review")
@roles_required("authority")
def record_uth_review(certificate_id: str) -> ResponseReturnValue:
    """Reviewed first: the review rehearses the finding and says what it will cut, freeze
    or release, in the words the success message uses."""
    who, rules, form = actor(), ruleset(), request.form
    ok, read, status = forms.attempt(
        lambda: (
            forms.required_int(form, "tax_period", "The tax period"),
            forms.required_text(form, "finding", "The finding"),
        )
    )
    if not ok:
        return render_certificate(certificate_id, status)
    period, finding = read
    back = url_for("pages.certificate", certificate_id=certificate_id)

    def review_of(cert: dict[str, Any]) -> ResponseReturnValue:
        return confirm.review(
            title=f"Record the tax period {period} review",
            action=url_for("pages.record_uth_review", certificate_id=certificate_id),
            lines=[
                ("Certificate", str(cert.get("number", ""))),
                ("Finding", finding_labels(rules).get(finding, finding)),
                ("What it will do", summary(cert["review"], cert["balance_cents"])),
            ],
            carry={"tax_period": str(period), "finding": finding},
            button="Confirm: record the review",
            back=back,
            warning="The review records UTH_REVIEW_RECORDED; a cut is not given back by a "
            "later restoration (UTH-26).",
        )

    def done(cert: dict[str, Any]) -> ResponseReturnValue:
        flash(summary(cert["review"], cert["balance_cents"]), "success")
        return redirect(back)

    return confirm.rehearsed(
        engine(),
        lambda uow: uth_fees.record_review(
            uow, who, RecordUthReview(certificate_id, period, finding), rules
        ),
        refused=lambda code: render_certificate(certificate_id, code),
        review_of=review_of,
        done=done,
    )


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
