"""The buyer's desk: holdings with their carryover windows, applying a credit to a return
(which limit binds and what carries forward), and pass-through to owners."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.programs import Program
from market.domain.rules import pass_through as pt_rules
from market.services import certificates, pages_queries, parties, returns, runner
from market.services.trading import today
from market.services.uow import ReadOnly
from market.web import forms
from market.web.pages import actor, bp, engine, roles_required, ruleset
from market.web.seller_pages import party_id

LIMITS = {
    "requested": "the amount you asked to apply",
    "balance": "the certificate's usable balance",
    "fifty_percent_ceiling": "the ceiling of 50% of the tax liability (digital media)",
    "statutory_minimum": "the CBT statutory minimum tax, which credits may not reduce",
    "liability": "the tax liability after other credits",
    "section_40_ratio": "the owner's §40 share of the entity's liability (pass-through)",
}


def limit_in_words(code: str) -> str:
    return LIMITS.get(code, code.replace("_", " "))


def _render(status: int = 200) -> ResponseReturnValue:
    me, rules = party_id(), ruleset()
    with ReadOnly(engine()) as conn:
        certs, _ = certificates.list_party_certificates(conn, actor(), me, None, 500)
        party = parties.load_party(conn, me)
        applied = pages_queries.credit_applications_of(conn, me)
        names = pages_queries.party_names(conn)
        agreement = parties.owners_agreement(conn, me)
    held = [c for c in certs if not c["is_original"]]
    for c in held:
        c["last_year"] = pages_queries.carryover_last_year(c, rules)
    numbers = {c["id"]: c["number"] for c in certs}
    usable = [c for c in held if c["balance_cents"] > 0]
    # UTH-14 / AMB-17: where the owners' agreement governs, offering "by income share"
    # would promise a split the service will not make; each basis gets its own form.
    by_basis: dict[str, list[dict[str, Any]]] = {"income_share": [], "owners_agreement": []}
    for c in usable:
        basis = pt_rules.allocation_basis(
            Program(c["program"]), party["entity_type"], agreement is not None, rules
        )
        by_basis[basis].append(c)
    return (
        render_template(
            "buyer.html",
            party=party,
            held=held,
            usable=usable,
            by_basis=by_basis,
            agreement=agreement,
            applied=applied,
            numbers=numbers,
            names=names,
            limit_in_words=limit_in_words,
            pass_through=party["entity_type"] in returns.PASS_THROUGH_ENTITIES,
            this_year=today().year,
            form=request.form,
        ),
        status,
    )


@bp.get("/buyer", endpoint="buyer")
@roles_required("participant")
def buyer_page() -> ResponseReturnValue:
    return _render()


@bp.post("/buyer/returns", endpoint="apply_credit")
@roles_required("participant")
def apply_credit() -> ResponseReturnValue:
    who, rules, form = actor(), ruleset(), request.form

    def act() -> Any:
        new = returns.NewCreditApplication(
            certificate_id=forms.required_text(form, "certificate_id", "The certificate"),
            tax_type=forms.required_text(form, "tax_type", "The tax"),
            tax_year=forms.required_int(form, "tax_year", "The tax year"),
            liability_cents=forms.required_cents(form, "liability", "The tax liability"),
            amount_cents=forms.required_cents(form, "amount", "The amount to apply"),
            other_credits_cents=forms.cents(form, "other_credits", "Other credits", required=False)
            or 0,
        )
        return runner.run(engine(), lambda uow: returns.apply_to_return(uow, who, rules, new))

    ok, result, status = forms.attempt(act)
    if not ok:
        return _render(status)
    flash(
        f"Applied {forms.dollars(result['applied_cents'])} to the {result['tax_year']} "
        f"{result['tax_type']} return, limited by {limit_in_words(result['limited_by'])}; "
        f"{forms.dollars(result['carried_forward_cents'])} carries forward.",
        "success",
    )
    return redirect(url_for("pages.buyer"))


@bp.post("/buyer/pass-through", endpoint="pass_through")
@roles_required("participant")
def pass_through() -> ResponseReturnValue:
    who, form, rules = actor(), request.form, ruleset()

    def act() -> Any:
        cert_id = forms.required_text(form, "certificate_id", "The certificate")
        amount = forms.cents(form, "amount", "The amount", required=False)
        return runner.run(
            engine(), lambda uow: returns.pass_through_allocate(uow, who, cert_id, amount, rules)
        )

    ok, result, status = forms.attempt(act)
    if not ok:
        return _render(status)
    with ReadOnly(engine()) as conn:
        names = pages_queries.party_names(conn)
    shares = "; ".join(
        f"{names.get(a['party_id'], a['party_id'])} {forms.dollars(a['amount_cents'])}"
        for a in result["allocations"]
    )
    review = " The Director must review it (no income shares on record)." * bool(
        result["director_review"]
    )
    flash(f"Passed {forms.dollars(result['amount_cents'])} through: {shares}.{review}", "success")
    return redirect(url_for("pages.buyer"))
