"""The Authority's desk: the approval queue (searched, sorted and paged on the server) with
every rule check in words, approve and reject; certificate issuance; recapture. Reject,
issue and recapture cannot be undone, so each shows what it will write and asks for a
confirmation first (web/confirm); parties and certificates are picked by name, never by
a default."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.programs import Program
from market.services.certificates import certificates
from market.services.kernel import lookups, runner
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.queries import list_search, pages_queries, pickers, todo
from market.services.trading import trading
from market.services.trading.trading import today
from market.validation import RejectIn
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.deal_pages import from_deal_room, render_transfer_room
from market.web.fields import Fields
from market.web.filters import per_dollar

ISSUABLE = [p.value for p in certificates.ISSUABLE]
PROGRAMS = [p.value for p in Program]
FUNDS = {
    "general_fund": "the General Fund",
    "property_tax_relief_fund": "the Property Tax Relief Fund",
}
PER_PAGE = 20


def queue_query() -> list_search.ListQuery:
    program = request.args.get("program") or None
    return list_search.ListQuery(
        q=(request.args.get("q") or "")[:100],
        program=program if program in PROGRAMS else None,
        sort=request.args.get("sort", "oldest"),
        page=max(1, request.args.get("page", 1, type=int)),
        per_page=PER_PAGE,
    )


def render_desk(status: int = 200) -> ResponseReturnValue:
    query, on = queue_query(), today()
    with ReadOnly(engine()) as conn:
        page = list_search.search_queue(conn, actor(), query)
        # The ownership graph once for the page, not once per pending row.
        pages_queries.with_previews(conn, page.items, ruleset(), on)
        since = todo.waiting_since(conn, [t["id"] for t in page.items])
        choices = pickers.party_choices(conn)
        certs = pickers.certificate_choices(conn)
        # The names of the parties shown (queue rows, certificate choices) only.
        names = lookups.names_of(
            conn,
            [t[k] for t in page.items for k in ("seller_party_id", "buyer_party_id")]
            + [c["holder_party_id"] for c in certs],
        )
    return (
        render_template(
            "authority.html",
            queue=page.items,
            page=page,
            query=query,
            sorts=list_search.QUEUE_SORTS,
            names=names,
            since=since,
            parties=choices,
            certificates=certs,
            issuable=ISSUABLE,
            programs=PROGRAMS,
            today=on,
            form=request.form,
        ),
        status,
    )


@bp.get("/authority", endpoint="authority")
@roles_required("authority")
def authority_page() -> ResponseReturnValue:
    return render_desk()


def done(message: str, made: str | None = None) -> ResponseReturnValue:
    """Back to the desk with the success said, linking what was made (`made`: its page)."""
    flash(message, f"success:{made}" if made else "success")
    return redirect(url_for("pages.authority"))


@bp.post("/authority/transfers/<transfer_id>/approve", endpoint="approve_transfer")
@roles_required("authority")
def approve_transfer(transfer_id: str) -> ResponseReturnValue:
    """Review, then confirm: the review rehearses the very approval the confirm runs (its
    unit of work rolls back), so a sale the rules refuse is refused here, in words, and
    one the review passes is not refused after."""
    who, rules, on = actor(), ruleset(), today()

    def approve(uow: UnitOfWork) -> trading.TransferView:
        return trading.approve_transfer(uow, who, transfer_id, rules, on)

    if not confirm.confirmed():
        ok, t, status = forms.attempt(lambda: runner.rehearse(engine(), approve))
        if not ok:
            return _answer_refusal(transfer_id, status)
        return _approval_review(transfer_id, t)
    ok, t, status = forms.attempt(lambda: runner.run(engine(), approve))
    if not ok:
        return _answer_refusal(transfer_id, status)
    flash(
        f"Transfer of {forms.dollars(t['amount_cents'])} approved; "
        "the buyer now holds a new certificate.",
        "success",
    )
    return redirect(url_for("pages.deal_transfer", transfer_id=transfer_id))


def _approval_review(transfer_id: str, t: dict[str, Any]) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        names = lookups.names_of(conn, [t["seller_party_id"], t["buyer_party_id"]])
    passed = [c for c in t.get("checks") or [] if c.get("passed")]
    return confirm.review(
        title="Approve this transfer",
        action=url_for("pages.approve_transfer", transfer_id=transfer_id),
        lines=[
            (
                "Transfer",
                f"{t['program']} · {forms.dollars(t['amount_cents'])} of credit for "
                f"{forms.dollars(t['consideration_cents'])} "
                f"({per_dollar(t['consideration_cents'], t['amount_cents'])})",
            ),
            ("Seller", names.get(t["seller_party_id"], t["seller_party_id"])),
            ("Buyer", names.get(t["buyer_party_id"], t["buyer_party_id"])),
            ("Rules checked", f"all {len(passed)} pass, as they would now on approval"),
            *[(str(c["rule"]).replace("_", " "), str(c["message"])) for c in passed],
        ],
        carry={"from": request.form.get("from", "")},
        button="Confirm: approve the transfer",
        back=url_for("pages.deal_transfer", transfer_id=transfer_id),
        warning="Approving records TRANSFER_APPROVED and moves the credit to the buyer; "
        "it cannot be undone.",
    )


@bp.post("/authority/transfers/<transfer_id>/reject", endpoint="reject_transfer")
@roles_required("authority")
def reject_transfer(transfer_id: str) -> ResponseReturnValue:
    who, f = actor(), Fields(request.form)
    reason = f.read(
        f"reason-{transfer_id}",
        lambda: forms.required_text(request.form, "reason", "A reason for the rejection"),
    )
    f.load(RejectIn(), {"reason": reason}, {"reason": f"reason-{transfer_id}"})
    if not f.ok or reason is None:
        return _answer_refusal(transfer_id, f.refuse())
    if not confirm.confirmed():
        with ReadOnly(engine()) as conn:
            t = trading.load_transfer(conn, transfer_id)
            names = lookups.names_of(conn, [t["seller_party_id"], t["buyer_party_id"]])
        return confirm.review(
            title="Reject this transfer",
            action=url_for("pages.reject_transfer", transfer_id=transfer_id),
            lines=[
                (
                    "Transfer",
                    f"{t['program']} · {forms.dollars(t['amount_cents'])} for "
                    f"{forms.dollars(t['consideration_cents'])}",
                ),
                ("Seller", names.get(t["seller_party_id"], t["seller_party_id"])),
                ("Buyer", names.get(t["buyer_party_id"], t["buyer_party_id"])),
                ("Reason the parties will read", reason),
            ],
            carry={"reason": reason, "from": request.form.get("from", "")},
            button="Confirm: reject the transfer",
            back=url_for("pages.authority") + f"#transfer-{transfer_id}",
            warning="Rejecting records a TRANSFER_REJECTED event; it cannot be undone.",
        )
    ok, _, status = forms.attempt(
        lambda: runner.run(
            engine(), lambda uow: trading.reject_transfer(uow, who, transfer_id, reason)
        )
    )
    if not ok:
        return _answer_refusal(transfer_id, status)
    if from_deal_room():
        flash("Transfer rejected; the parties can see the reason.", "success")
        return redirect(url_for("pages.deal_transfer", transfer_id=transfer_id))
    return done("Transfer rejected; the parties can see the reason.")


def _answer_refusal(transfer_id: str, status: int) -> ResponseReturnValue:
    """A refused decision answers on the page it was posted from: the deal room or the desk."""
    if from_deal_room():
        return render_transfer_room(transfer_id, status)
    return render_desk(status)
