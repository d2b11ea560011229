"""The Authority records a TECH application filed on paper (`/authority/tech/paper-filing`,
TB-6): the applicant picked by name, the day (and time, New York) it was received and
why the Authority records the receipt, and the application's figures, loaded with the
API's TechApplicationIn. The review runs the intake's own rules (confirm.rehearsed): the fiscal
year the receipt falls in, the benefit and eligibility; only the confirmation writes."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.services.casefiles.checklists import with_case
from market.services.kernel.uow import ReadOnly
from market.services.queries import pickers
from market.services.tech import tech
from market.services.trading.trading import today
from market.validation import TechApplicationIn
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields

NAMES = {
    "party_id": "party",
    "received_on": "received_on",
    "receipt_reason": "receipt_reason",
    "nol_cents": "nol",
    "allocation_factor": "allocation_factor",
    "seller_tax_regime": "regime",
    "rnd_credit_cents": "rnd",
    "requested_cents": "requested",
}
CARRIED = (
    *("party", "received_on", "received_time", "receipt_reason", "nol"),
    *("allocation_factor", "regime", "rnd", "requested"),
)


def render(status: int = 200) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        choices = pickers.party_choices(conn)
    page = render_template("paper_filing.html", parties=choices, today=today(), form=request.form)
    return page, status


@bp.get("/authority/tech/paper-filing", endpoint="paper_tech_filing")
@roles_required("authority")
def paper_filing_page() -> ResponseReturnValue:
    return render()


def _received(f: Fields) -> str | None:
    day = f.read("received_on", lambda: forms.day(f.form, "received_on", "The day received"))
    time = (f.form.get("received_time") or "").strip()
    if day is None:
        return None
    if time and not (len(time) == 5 and time[2] == ":" and time.replace(":", "").isdigit()):
        f.errors["received_time"] = "The time must be like 16:45 (New York time)."
        return None
    return f"{day.isoformat()}T{time}" if time else day.isoformat()


def _read(f: Fields) -> tuple[tech.NewTechApplication, pickers.PartyChoice] | None:
    with ReadOnly(engine()) as conn:
        party = f.read("party", lambda: pickers.resolve_party(conn, f.form.get("party", "")))
    data = {
        "party_id": party["id"] if party else None,
        "received_on": _received(f),
        "receipt_reason": f.text("receipt_reason"),
        "nol_cents": f.cents("nol", "The net operating loss"),
        "allocation_factor": f.text("allocation_factor"),
        "seller_tax_regime": f.text("regime"),
        "rnd_credit_cents": f.cents("rnd", "The R&D credit"),
        "requested_cents": f.cents("requested", "The amount asked", required=False),
    }
    if data["receipt_reason"] is None and "receipt_reason" not in f.errors:
        f.errors["receipt_reason"] = "Say why the Authority records this receipt (TB-6)."
    loaded = f.load(TechApplicationIn(), data, NAMES)
    if not f.ok or loaded is None or party is None:
        return None
    return tech.NewTechApplication(**loaded), party


@bp.post("/authority/tech/paper-filing", endpoint="record_paper_tech_filing")
@roles_required("authority")
def record_paper_filing() -> ResponseReturnValue:
    who, rules, f = actor(), ruleset(), Fields(request.form)
    read = _read(f)
    if read is None:
        return render(f.refuse())
    new, party = read

    def review(app: dict[str, Any]) -> ResponseReturnValue:
        eligible = "eligible" if app["eligible"] else "not eligible: " + ", ".join(app["reasons"])
        return confirm.review(
            title="Record a TECH application filed on paper",
            action=url_for("pages.record_paper_tech_filing"),
            lines=[
                ("Applicant", party["label"]),
                ("Received (New York time)", str(app["received_at"] or app["received_on"])),
                ("Why the Authority records it", str(app["receipt_reason"])),
                ("Fiscal year it belongs to", f"FY {app['fiscal_year']}"),
                ("Net operating loss", forms.dollars(app["nol_cents"])),
                ("R&D credit", forms.dollars(app["rnd_credit_cents"])),
                ("Benefit", forms.dollars(app["benefit_cents"])),
                ("Asked for", forms.dollars(app["requested_cents"])),
                ("Eligibility", eligible),
            ],
            carry={k: request.form.get(k, "") for k in CARRIED} | {"party": party["id"]},
            button="Confirm: record the paper filing",
            back=url_for("pages.paper_tech_filing"),
            warning="Recording the filing appends TECH_APPLICATION_RECEIVED and "
            "TECH_RECEIPT_RECORDED with this receipt; it cannot be undone.",
        )

    def done(app: dict[str, Any]) -> ResponseReturnValue:
        flash(
            f"Paper filing recorded for {party['label']}: received {app['received_on']}, "
            f"FY {app['fiscal_year']}, benefit {forms.dollars(app['benefit_cents'])}.",
            "success",
        )
        return redirect(url_for("pages.casefile_tech", application_id=app["id"]))

    return confirm.rehearsed(
        engine(),
        lambda uow: with_case(uow, dict(tech.submit_application(uow, who, rules, new))),
        refused=render,
        review_of=review,
        done=done,
    )
