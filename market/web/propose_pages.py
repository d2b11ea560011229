"""A seller proposes a negotiated transfer to a named buyer (PRODUCT.md `POST /transfers`,
8.2; issue 28 item 3): the certificate, the buyer by name, the amount in dollars and the
price in cents on the dollar; then a review that runs what the service will check and
shows each result, then a confirm. The buyer is typed by its registered name or tax id and
resolved on submit (market/services/queries/pickers.py): a participant's page lists no
other parties (tests/proof/test_roles_pages.py), so the Authority's type-ahead is not
offered here. A rule that fails is shown beside the field it is
about, and nothing is written; success opens the new deal's page."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.commands.trading import CreateTransfer
from market.domain.errors import DomainError
from market.services.kernel import runner
from market.services.kernel.uow import ReadOnly
from market.services.queries import desk_queries, pickers
from market.services.trading import trading
from market.services.trading.pretrade import proposal_checks
from market.validation import TransferIn
from market.validation.error_codes import status_of
from market.web import forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields
from market.web.filters import per_dollar
from market.web.seller_pages import party_id

# The form field a refused rule is about (the rest are about the certificate).
RULE_FIELDS = {
    "other_party": "buyer",
    "buyer_tax_types": "buyer",
    "affiliation": "buyer",
    "individual_buyer": "buyer",
    "balance": "amount",
    "commitments": "amount",
    "uth_tranches": "amount",
    "minimum_consideration": "per_dollar",
}
RULE_WORDS = {
    "other_party": "Another party buys",
    "balance": "Within the usable balance",
    "carryforward_window": "Still usable by a buyer",
    "individual_buyer": "A buyer the program allows",
    "no_resale": "Sold by the original holder (CMN-6)",
    "minimum_consideration": "At least the program's floor (CMN-5)",
    "buyer_tax_types": "The buyer pays a tax the credit offsets",
    "affiliation": "Seller and buyer not affiliated",
    "uth_tranches": "Installments reviewed (UTH-27)",
    "commitments": "Not promised to listings or other transfers",
    "trading_halt": "No trading halt",
}


def _render(status: int = 200, errors: dict[str, str] | None = None) -> ResponseReturnValue:
    me = party_id()
    with ReadOnly(engine()) as conn:
        usable = desk_queries.usable_certificates(conn, me)
    return (
        render_template(
            "propose.html",
            usable=usable,
            form=request.form,
            errors=errors if errors is not None else forms.field_errors(),
        ),
        status,
    )


@bp.get("/seller/transfers/new", endpoint="propose_transfer")
@roles_required("participant")
def propose_form() -> ResponseReturnValue:
    return _render()


def _read() -> tuple[Fields, dict[str, Any] | None]:
    """The form's values loaded by the API's TransferIn, the buyer resolved by name."""
    f, form = Fields(request.form), request.form
    amount = f.cents("amount", "The amount of credit")
    buyer_id = None
    with ReadOnly(engine()) as conn:
        buyer = f.read(
            "buyer", lambda: pickers.resolve_party(conn, form.get("buyer") or "", "buyer")
        )
    if buyer is not None:
        buyer_id = buyer["id"]
    data = {
        "certificate_id": f.text("certificate_id"),
        "buyer_party_id": buyer_id,
        "amount_cents": amount,
        "consideration_cents": f.price("per_dollar", "The price", amount),
        "agreement_ref": f.text("agreement_ref"),
    }
    names = {
        "certificate_id": "certificate_id",
        "buyer_party_id": "buyer",
        "amount_cents": "amount",
        "consideration_cents": "per_dollar",
        "agreement_ref": "agreement_ref",
    }
    loaded = f.load(TransferIn(), data, names)
    if f.ok:
        loaded["buyer"] = buyer
    return f, loaded


def _review(t: dict[str, Any], checks: list[dict[str, Any]]) -> ResponseReturnValue:
    carry = {
        k: request.form.get(k, "")
        for k in ("certificate_id", "buyer", "amount", "per_dollar", "agreement_ref")
    }
    with ReadOnly(engine()) as conn:
        usable = desk_queries.usable_certificates(conn, party_id())
    chosen = (c.number for c in usable if c.id == t["certificate_id"])
    return render_template(
        "propose_review.html",
        cert={"number": next(chosen, t["certificate_id"])},
        buyer=t["buyer"],
        amount_cents=t["amount_cents"],
        price_cents=t["consideration_cents"],
        agreement_ref=t.get("agreement_ref"),
        checks=checks,
        words=RULE_WORDS,
        carry=carry,
    )


@bp.post("/seller/transfers/new", endpoint="propose_transfer_post")
@roles_required("participant")
def propose() -> ResponseReturnValue:
    who, rules = actor(), ruleset()
    f, t = _read()
    if not f.ok or t is None:
        return _render(f.refuse())
    try:
        with ReadOnly(engine()) as conn:
            checks = proposal_checks(
                conn,
                who,
                CreateTransfer(
                    t["certificate_id"],
                    t["buyer_party_id"],
                    t["amount_cents"],
                    t["consideration_cents"],
                ),
                rules,
            )
    except DomainError as e:  # not the seller's certificate (told as if unknown)
        return _render(status_of(e), {"certificate_id": e.message})
    failed = {RULE_FIELDS.get(c["rule"], "certificate_id"): c for c in checks if not c["passed"]}
    if failed:
        flash("Nothing was written: the transfer would be refused, as marked below.", "error")
        return _render(422, {field: c["message"] for field, c in failed.items()})
    if request.form.get("confirm") != "yes":
        return _review(t, checks)
    sale = CreateTransfer(
        t["certificate_id"],
        t["buyer_party_id"],
        t["amount_cents"],
        t["consideration_cents"],
        t.get("agreement_ref"),
    )
    ok, made, status = forms.attempt(
        lambda: runner.run(
            engine(),
            lambda uow: trading.create_transfer(uow, who, sale, rules),
        )
    )
    if not ok:
        return _render(status)
    flash(
        f"Proposed: {forms.dollars(made['amount_cents'])} of credit to {t['buyer']['name']} "
        f"for {forms.dollars(made['consideration_cents'])} "
        f"({per_dollar(made['consideration_cents'], made['amount_cents'])}); it waits for "
        "the buyer's confirmation, then the Authority's approval.",
        "success",
    )
    return redirect(url_for("pages.deal_transfer", transfer_id=made["id"]))
