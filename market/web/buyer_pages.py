"""The buyer's desk: negotiated transfers waiting for its consent (confirm or decline,
PRODUCT.md 8.2), holdings with their carryover windows, applying a credit to a return
(which limit binds and what carries forward), and pass-through to owners."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.adapters.repositories.trading_models import offer_row
from market.domain.programs import Program
from market.domain.rules import pass_through as pt_rules
from market.services.certificates import pass_through_allocations
from market.services.kernel import lookups, runner
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.parties import parties
from market.services.queries import desk_queries
from market.services.trading import trade_views, trading
from market.services.trading.trading import today
from market.validation import DeclineIn, PassThroughIn
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.deal_pages import from_deal_room, render_transfer_room
from market.web.fields import Fields
from market.web.filters import per_dollar
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


def render_holdings(status: int = 200) -> ResponseReturnValue:
    """Holdings 50 at a time (`?held_after=` for the next page), the form's choices and the
    latest credit applications: each read bounded, however much the party holds."""
    me, rules = party_id(), ruleset()
    with ReadOnly(engine()) as conn:
        party = parties.load_party(conn, me)
        held, held_next = desk_queries.holdings_page(
            conn, me, rules, request.args.get("held_after", type=int)
        )
        usable = desk_queries.usable_certificates(conn, me)
        applied = desk_queries.credit_applications_page(conn, me)
        # Issue 28 item 3: the sellers' counters waiting for this buyer's answer.
        counters = [
            trade_views.offer_state(offer_row(o), today())
            for o in desk_queries.offers_page(conn, me, "buyer")[0]
            if o["status"] == "countered"
        ]
        # The certificates applied from, each held one's parent (named, not linked:
        # another party's certificate is not the buyer's to open), and the counters'.
        by_return = desk_queries.applied_by_return(conn, me)
        numbers = lookups.numbers_of(
            conn,
            [a.certificate_id for a in applied]
            + [c.parent_id for c in held]
            + [o["certificate_id"] for o in counters],
        )
        agreement = parties.owners_agreement(conn, me)
        waiting, _ = trading.list_transfers(conn, actor(), "awaiting_buyer", None, 200)
        awaiting = [t for t in waiting if t["buyer_party_id"] == me]
        # The template names the awaiting transfers' sellers and the agreement's owners.
        names = lookups.names_of(
            conn,
            [t["seller_party_id"] for t in awaiting]
            + [o["seller_party_id"] for o in counters]
            + [sh["owner_party_id"] for sh in (agreement["shares"] if agreement else [])],
        )
    numbers |= {c.id: c.number for c in held}
    # UTH-14 / AMB-17: where the owners' agreement governs, offering "by income share"
    # would promise a split the service will not make; each basis gets its own form.
    by_basis: dict[str, list[desk_queries.UsableCertificate]] = {
        "income_share": [],
        "owners_agreement": [],
    }
    for u in usable:
        basis = pt_rules.allocation_basis(
            Program(u.program), party["entity_type"], agreement is not None, rules
        )
        by_basis[basis].append(u)
    return (
        render_template(
            "buyer.html",
            party=party,
            held=held,
            held_next=held_next,
            usable=usable,
            awaiting=awaiting,
            counters=counters,
            names=names,
            by_basis=by_basis,
            agreement=agreement,
            applied=applied,
            by_return=by_return,
            numbers=numbers,
            limit_in_words=limit_in_words,
            pass_through=party["entity_type"] in pass_through_allocations.PASS_THROUGH_ENTITIES,
            this_year=today().year,
            form=request.form,
        ),
        status,
    )


@bp.get("/buyer", endpoint="buyer")
@roles_required("participant")
def buyer_page() -> ResponseReturnValue:
    return render_holdings()


@bp.post("/buyer/pass-through", endpoint="pass_through")
@roles_required("participant")
def pass_through() -> ResponseReturnValue:
    """The API's PassThroughIn checks the amount (blank: the whole balance; $0 is refused
    beside its field); the service then splits it among the owners."""
    who, rules, f = actor(), ruleset(), Fields(request.form)
    cert_id = f.read(
        "certificate_id",
        lambda: forms.required_text(request.form, "certificate_id", "The certificate"),
    )
    data = {"amount_cents": f.cents("amount", "The amount", required=False)}
    loaded = f.load(PassThroughIn(), data, {"amount_cents": "amount"})
    if not f.ok or cert_id is None:
        return render_holdings(f.refuse())
    amount = loaded.get("amount_cents")
    ok, result, status = forms.attempt(
        lambda: runner.run(
            engine(),
            lambda uow: pass_through_allocations.pass_through_allocate(
                uow, who, cert_id, amount, rules
            ),
        )
    )
    if not ok:
        return render_holdings(status)
    with ReadOnly(engine()) as conn:
        names = lookups.names_of(conn, [a["party_id"] for a in result["allocations"]])
    shares = "; ".join(
        f"{names.get(a['party_id'], a['party_id'])} {forms.dollars(a['amount_cents'])}"
        for a in result["allocations"]
    )
    review = " The Director must review it (no income shares on record)." * bool(
        result["director_review"]
    )
    flash(f"Passed {forms.dollars(result['amount_cents'])} through: {shares}.{review}", "success")
    return redirect(url_for("pages.buyer"))


@bp.post("/buyer/transfers/<transfer_id>/<decision>", endpoint="buyer_consent")
@roles_required("participant")
def buyer_consent(transfer_id: str, decision: str) -> ResponseReturnValue:
    """Confirm (it goes to the Authority) or decline a negotiated transfer. Confirming
    binds the buyer, so it is reviewed first: the review rehearses the very confirmation
    (the rules run again on today's state; nothing is written). A decline takes an
    optional reason the seller reads, and is reviewed before it is recorded."""
    who, rules = actor(), ruleset()
    if decision not in ("confirm", "decline"):
        return render_holdings(404)
    reason: str | None = None
    if decision == "decline":
        f = Fields(request.form)
        field = f"reason-{transfer_id}"
        loaded = f.load(DeclineIn(), {"reason": f.text("reason")}, {"reason": field})
        if not f.ok:
            return render_holdings(f.refuse())
        reason = loaded.get("reason")
        if not confirm.confirmed():
            return _review_decline(transfer_id, reason)

    def confirm_it(uow: UnitOfWork) -> Any:
        return trading.confirm_transfer(uow, who, transfer_id, rules)

    def act() -> Any:
        if decision == "confirm":
            return runner.run(engine(), confirm_it)
        return runner.run(
            engine(), lambda uow: trading.decline_transfer(uow, who, transfer_id, reason)
        )

    if decision == "confirm" and not confirm.confirmed():
        ok, result, status = forms.attempt(lambda: runner.rehearse(engine(), confirm_it))
        if not ok:
            return _refused(transfer_id, status)
        return _confirm_review(transfer_id, result)
    ok, result, status = forms.attempt(act)
    if not ok:
        return _refused(transfer_id, status)
    done = (
        "confirmed; it now awaits the Authority's approval"
        if decision == "confirm"
        else "declined; nothing was transferred"
    )
    flash(f"Transfer of {forms.dollars(result['amount_cents'])} {done}.", "success")
    if from_deal_room():
        return redirect(url_for("pages.deal_transfer", transfer_id=transfer_id))
    return redirect(url_for("pages.buyer"))


def _refused(transfer_id: str, status: int) -> ResponseReturnValue:
    if from_deal_room():
        return render_transfer_room(transfer_id, status)
    return render_holdings(status)


def _confirm_review(transfer_id: str, t: dict[str, Any]) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        names = lookups.names_of(conn, [t["seller_party_id"], t["buyer_party_id"]])
    price = t["consideration_cents"]
    return confirm.review(
        title="Confirm this purchase",
        action=url_for("pages.buyer_consent", transfer_id=transfer_id, decision="confirm"),
        lines=[
            ("Seller", names.get(t["seller_party_id"], t["seller_party_id"])),
            ("Credit", f"{t['program']} · {forms.dollars(t['amount_cents'])}"),
            ("You pay", f"{forms.dollars(price)} ({per_dollar(price, t['amount_cents'])})"),
            ("Rules checked", "all pass on today's state; the Authority decides next"),
        ],
        carry={"from": request.form.get("from", "")},
        button="Confirm: buy this credit",
        back=url_for("pages.deal_transfer", transfer_id=transfer_id),
        warning="Confirming binds you to the price; the Authority then approves or rejects.",
        danger=False,
    )


def _review_decline(transfer_id: str, reason: str | None) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        t = trading.get_transfer(conn, actor(), transfer_id)
        seller = lookups.names_of(conn, [t["seller_party_id"]]).get(t["seller_party_id"], "")
    return confirm.review(
        title="Decline this transfer",
        action=url_for("pages.buyer_consent", transfer_id=transfer_id, decision="decline"),
        lines=[
            ("Seller", seller),
            (
                "Transfer",
                f"{t['program']} · {forms.dollars(t['amount_cents'])} for "
                f"{forms.dollars(t['consideration_cents'])}",
            ),
            ("Reason the seller will read", reason or "none given"),
        ],
        carry={"reason": reason or "", "from": request.form.get("from", "")},
        button="Confirm: decline the transfer",
        back=url_for("pages.buyer"),
        warning="Declining records a TRANSFER_DECLINED event; the seller would have to "
        "propose again.",
    )
