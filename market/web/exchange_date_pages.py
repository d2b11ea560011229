"""Approving a transfer with a back-dated exchange date (`/authority/exchange-date`): the
API's `exchange_date` on approval, for a sale the parties exchanged before the Authority
approved it. Every rule is checked on that date; the review runs the approval itself in a
unit of work that is never committed (confirm.rehearsed), so a review that passes is an
approval that will pass; only the confirmation writes."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.services.kernel import lookups
from market.services.kernel.uow import ReadOnly
from market.services.queries import todo
from market.services.queries.todo_rows import WaitingTransfer
from market.services.trading import trading
from market.services.trading.trading import today
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields
from market.web.filters import money, per_dollar


def _words(t: WaitingTransfer | dict[str, Any], names: dict[str, str]) -> str:
    return (
        f"{t['program']} · {names.get(t['seller_party_id'], '')} to "
        f"{names.get(t['buyer_party_id'], '')} · {money(t['amount_cents'])} for "
        f"{money(t['consideration_cents'])} "
        f"({per_dollar(t['consideration_cents'], t['amount_cents'])})"
    )


def render(status: int = 200) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        waiting = todo.transfers(conn).rows
        pending = [t for t in waiting if t["status"] == "pending_approval"]
        names = lookups.names_of(
            conn, [p for t in pending for p in (t["seller_party_id"], t["buyer_party_id"])]
        )
    choices = [(t["id"], _words(t, names)) for t in pending]
    # A link from the queue names its transfer (`?transfer_id=`); a post keeps what was typed.
    form = request.form if request.method == "POST" else request.args
    page = render_template("exchange_date.html", choices=choices, today=today(), form=form)
    return page, status


@bp.get("/authority/exchange-date", endpoint="back_dated_exchange")
@roles_required("authority")
def exchange_date_page() -> ResponseReturnValue:
    return render()


def _read(f: Fields) -> tuple[str, date] | None:
    transfer_id = f.text("transfer_id")
    if transfer_id is None:
        f.errors["transfer_id"] = "Choose the transfer."
    on = f.read("exchange_date", lambda: forms.day(f.form, "exchange_date", "The exchange date"))
    if on is not None and on > today():
        f.errors["exchange_date"] = (
            f"The exchange date cannot be after today ({today().isoformat()}); "
            "approve it on the queue instead."
        )
    if not f.ok or transfer_id is None or on is None:
        return None
    return transfer_id, on


@bp.post("/authority/exchange-date", endpoint="approve_back_dated")
@roles_required("authority")
def approve_back_dated() -> ResponseReturnValue:
    who, rules, f = actor(), ruleset(), Fields(request.form)
    read = _read(f)
    if read is None:
        return render(f.refuse())
    transfer_id, on = read

    def review(t: dict[str, Any]) -> ResponseReturnValue:
        with ReadOnly(engine()) as conn:
            names = lookups.names_of(conn, [t["seller_party_id"], t["buyer_party_id"]])
        return confirm.review(
            title="Approve with a back-dated exchange date",
            action=url_for("pages.approve_back_dated"),
            lines=[
                ("Transfer", _words(t, names)),
                ("Exchange date", on.isoformat()),
                ("The rules", f"Every check passes on {on.isoformat()}, as approval runs them."),
                *(
                    (str(c["rule"]).replace("_", " "), str(c["message"]))
                    for c in t.get("checks") or []
                ),
                ("The buyer's certificate", f"A new certificate of {money(t['amount_cents'])}"),
            ],
            carry={"transfer_id": transfer_id, "exchange_date": on.isoformat()},
            button="Confirm: approve the transfer",
            back=url_for("pages.back_dated_exchange"),
            warning="Approving records TRANSFER_APPROVED with this exchange date and issues "
            "the buyer's certificate; it cannot be undone.",
        )

    def done(t: dict[str, Any]) -> ResponseReturnValue:
        flash(
            f"Transfer of {forms.dollars(t['amount_cents'])} approved, exchanged on "
            f"{t['exchange_date']}; the buyer now holds a new certificate.",
            "success",
        )
        return redirect(url_for("pages.deal_transfer", transfer_id=transfer_id))

    return confirm.rehearsed(
        engine(),
        lambda uow: trading.approve_transfer(uow, who, transfer_id, rules, on),
        refused=render,
        review_of=review,
        done=done,
    )
