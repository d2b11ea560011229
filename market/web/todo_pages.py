"""The Authority's "Things to do" (`/authority/todo`): everything that waits, on the
Authority or on someone else, grouped by kind; each row says what it is in words, since
when (New York date), whom it waits on, and links to where it is done. One query per kind
(services/queries/todo.py) and one for the names of every party shown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypeVar

from flask import render_template, url_for
from flask.typing import ResponseReturnValue

from market.services.kernel import lookups
from market.services.kernel.uow import ReadOnly
from market.services.queries import todo
from market.services.queries import todo_rows as rows
from market.services.trading.trading import today
from market.web.base import bp, engine, roles_required
from market.web.filters import money, per_dollar

AUTHORITY = "the Authority"
R = TypeVar("R")


@dataclass(frozen=True)
class Row:
    what: str
    since: date | None
    waits_on: str
    href: str
    action: str


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    rows: list[Row]
    total: int


def _transfer(t: rows.WaitingTransfer, name: dict[str, str]) -> Row:
    seller, buyer = name[t["seller_party_id"]], name[t["buyer_party_id"]]
    what = (
        f"{t['program']}: {seller} sells {money(t['amount_cents'])} to {buyer} for "
        f"{money(t['consideration_cents'])} "
        f"({per_dollar(t['consideration_cents'], t['amount_cents'])})"
    )
    since = todo.new_york_date(t["recorded_at"])
    href = url_for("pages.deal_transfer", transfer_id=t["id"])
    if t["status"] == "awaiting_buyer":
        return Row(what, since, f"{buyer} (the buyer's confirmation)", href, "Open the deal")
    queue = url_for("pages.authority") + f"#transfer-{t['id']}"
    return Row(what, since, f"{AUTHORITY} (approval)", queue, "Approve or reject")


def _closing(t: rows.WaitingClosing, name: dict[str, str]) -> Row:
    seller, buyer = name[t["seller_party_id"]], name[t["buyer_party_id"]]
    what = f"{t['program']}: {money(t['consideration_cents'])} from {buyer} to {seller}"
    if t["paid_on"] is None:
        waits = f"{buyer} (to record its payment)"
    else:
        waits = f"{seller} (to confirm the receipt of the payment of {t['paid_on']})"
    href = url_for("pages.deal_transfer", transfer_id=t["id"])
    return Row(what, todo.new_york_date(t["recorded_at"]), waits, href, "Open the deal")


def _registration(r: rows.WaitingRegistration) -> Row:
    since = todo.new_york_date(r["requested_at"])
    href = url_for("pages.registration_review", registration_id=r["id"])
    what = f"{r['legal_name']} asks to join ({r['entity_type'].replace('_', ' ')})"
    if r["status"] == "submitted":
        return Row(what, since, f"{AUTHORITY} (approve or reject)", href, "Review")
    return Row(what, since, f"{r['legal_name']} (to confirm its e-mail address)", href, "Open")


def fee_words(kind: str, program: str) -> str:
    """`tech_application` of TECH as "The TECH application fee"."""
    words = kind.replace("_", " ")
    if words.lower().startswith(program.lower() + " "):
        words = words[len(program) + 1 :]
    return f"The {program} {words} fee"


def _fee(f: rows.OwedFee, name: dict[str, str]) -> Row:
    owed = int(f["amount_cents"]) - int(f["credited_cents"]) - int(f["paid_cents"])
    party = name[f["party_id"]]
    what = f"{fee_words(f['kind'], f['program'])}: {money(owed)} owed by {party}"
    href = url_for("pages.fees") + f"#fee-{f['id']}"
    since = date.fromisoformat(f["invoiced_on"])
    return Row(what, since, f"{party} (to pay; {AUTHORITY} records it)", href, "Record a payment")


def _clearance(c: rows.LapsingClearance, name: dict[str, str], on: date) -> Row:
    party = name[c["party_id"]]
    until = date.fromisoformat(c["valid_until"])
    state = "lapsed after" if until < on else "valid until"
    what = f"{party}'s {c['program']} tax clearance {c['certificate_number']} ({state} {until})"
    since = until if until < on else until - timedelta(days=todo.CLEARANCE_WINDOW_DAYS)
    waits = f"{party} (a renewal from the Division of Taxation)"
    return Row(what, since, waits, url_for("pages.fees"), "Record a renewal")


def _uth(r: rows.DueUthReview, name: dict[str, str]) -> Row:
    holder = name[r["holder_party_id"]]
    what = (
        f"UTH award {r['number']} of {holder}: the annual review of tax period "
        f"{r['period']} ({money(r['cents'])})"
    )
    href = url_for("pages.certificate", certificate_id=r["id"]) + "#uth-review"
    return Row(what, r["since"], f"{AUTHORITY} (the annual review)", href, "Record the review")


def _tech(a: rows.WaitingTech, name: dict[str, str]) -> Row:
    party = name[a["party_id"]]
    what = f"TECH FY {a['fiscal_year']}: {party} asks for {money(a['requested_cents'])}"
    case = url_for("pages.casefile_tech", application_id=a["id"])
    submitted, preliminary, forwarded = a["submitted_on"], a["preliminary_on"], a["forwarded_on"]
    if submitted is not None and preliminary is None:
        since, waits = submitted, f"{AUTHORITY} (preliminary approval)"
    elif submitted is not None and preliminary is not None and forwarded is None:
        since, waits = preliminary, f"{AUTHORITY} (forward to the Division of Taxation)"
    elif submitted is not None and forwarded is not None and a["tax_certificate_issued_on"] is None:
        since, waits = forwarded, "the Division of Taxation (its tax certificate)"
    else:
        allocation = url_for("pages.allocation", fy=a["fiscal_year"])
        waits = f"{AUTHORITY} (the FY {a['fiscal_year']} allocation)"
        return Row(what, date.fromisoformat(a["received_on"]), waits, allocation, "Allocation")
    return Row(what, date.fromisoformat(since), waits, case, "Open the case file")


def sections(conn: Any, on: date) -> list[Section]:
    transfers, closings = todo.transfers(conn), todo.closings(conn)
    registrations, fees = todo.registrations(conn), todo.fees(conn)
    clearances, uth_reviews = todo.tax_clearances(conn, on), todo.uth_reviews_due(conn, on)
    tech = todo.tech_steps(conn)
    named = [
        *(p for t in transfers.rows for p in (t["seller_party_id"], t["buyer_party_id"])),
        *(p for t in closings.rows for p in (t["seller_party_id"], t["buyer_party_id"])),
        *(f["party_id"] for f in fees.rows),
        *(c["party_id"] for c in clearances.rows),
        *(r["holder_party_id"] for r in uth_reviews.rows),
        *(a["party_id"] for a in tech.rows),
    ]
    ids = [i for i in named if i]
    found = lookups.names_of(conn, ids)
    name = {i: found.get(i, "a party not on record") for i in ids}
    return [
        _section(
            "transfers",
            "Sales waiting to be confirmed or approved",
            transfers,
            lambda t: _transfer(t, name),
        ),
        _section(
            "closings",
            "Approved sales waiting for payment or receipt",
            closings,
            lambda t: _closing(t, name),
        ),
        _section("registrations", "Registrations", registrations, _registration),
        _section("fees", "Fees owed", fees, lambda f: _fee(f, name)),
        _section(
            "tax_clearances",
            "Tax clearances lapsing or lapsed",
            clearances,
            lambda c: _clearance(c, name, on),
        ),
        _section("uth_reviews", "UTH annual reviews due", uth_reviews, lambda r: _uth(r, name)),
        _section("tech", "TECH applications waiting for a step", tech, lambda a: _tech(a, name)),
    ]


def _section(key: str, title: str, kind: todo.Kind[R], row: Callable[[R], Row]) -> Section:
    return Section(key, title, [row(r) for r in kind.rows], kind.total)


@bp.get("/authority/todo", endpoint="authority_todo")
@roles_required("authority")
def todo_page() -> ResponseReturnValue:
    on = today()
    with ReadOnly(engine()) as conn:
        found = sections(conn, on)
    return render_template("todo.html", sections=found, today=on, limit=todo.LIMIT)
