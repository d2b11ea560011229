"""The TECH fiscal-year allocation: the applications, the preview, the one commit, and a
chart of the cap (allocated, innovation zone set-aside, remaining)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.rules import tech_caps
from market.domain.values import fiscal_year
from market.services.certificates import certificate_caps
from market.services.kernel import lookups, runner
from market.services.kernel.uow import ReadOnly
from market.services.queries import pages_queries
from market.services.tech import tech, tech_allocations
from market.services.trading.trading import today
from market.web import charts, confirm, forms
from market.web.base import actor, bp, engine, roles_required, ruleset


@bp.get("/authority/allocations", endpoint="allocations")
@roles_required("authority")
def allocations() -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        fy = pages_queries.latest_tech_fiscal_year(conn)
    return redirect(url_for("pages.allocation", fy=fy or fiscal_year(today())))


def _chart(fy: int, caps: dict[str, certificate_caps.ProgramCap], preview: dict[str, Any]) -> Any:
    labels = ["TECH fiscal-year cap", "Innovation zone set-aside"]
    rows = [caps["TECH"], caps["TECH_ZONE_SET_ASIDE"]]
    pending = 0 if preview["committed"] else int(preview["total_cents"])
    planned = [min(pending, int(rows[0]["remaining_cents"])), 0]
    series = {
        "allocated": [int(r["used_cents"]) for r in rows],
        "in the preview, not committed": planned,
        "remaining": [int(r["remaining_cents"]) - p for r, p in zip(rows, planned, strict=True)],
    }
    # Two rows need more height than the bar-per-40-px default gives them.
    return charts.stacked_dollars(f"TECH cap, FY {fy}", labels, series, height=300)


def _render(fy: int, status: int = 200) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        applications = tech.list_applications(conn, actor(), fy, None)
        preview = tech_allocations.preview_allocation(conn, actor(), fy, ruleset())
        report = certificate_caps.caps_report(conn, fy, ruleset())
        names = lookups.names_of(conn, [a["party_id"] for a in applications])
    caps = {r["program"]: r for r in report["programs"]}
    by_app = {a["application_id"]: a for a in preview["allocations"]}
    close = tech_caps.deadline(fy, ruleset())
    return (
        render_template(
            "allocations.html",
            fy=fy,
            applications=applications,
            preview=preview,
            by_app=by_app,
            caps=[caps["TECH"], caps["TECH_ZONE_SET_ASIDE"]],
            chart=_chart(fy, caps, dict(preview)),
            names=names,
            intake_open=today() <= close,
            intake_closes=close,
            commit_opens=close + timedelta(days=1),
        ),
        status,
    )


@bp.get("/authority/allocations/<int:fy>", endpoint="allocation")
@roles_required("authority")
def allocation(fy: int) -> ResponseReturnValue:
    return _render(fy)


def _review_commit(fy: int, changed: bool) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        preview = tech_allocations.preview_allocation(conn, actor(), fy, ruleset())
        names = lookups.names_of(conn, [a["party_id"] for a in preview["allocations"]])
    lines = [
        (names.get(a["party_id"], a["party_id"]), forms.dollars(a["allocated_cents"] or 0))
        for a in preview["allocations"]
        if a["allocated_cents"]
    ]
    lines.append(("Total", forms.dollars(int(preview["total_cents"]))))
    warning = (
        "Committing runs the allocation once, issues each seller above its TECH certificate "
        "and charges the caps. It cannot be undone."
    )
    if changed:
        warning = "The applications changed since your review; check the new figures. " + warning
    return confirm.review(
        title=f"Commit the FY {fy} TECH allocation",
        action=url_for("pages.commit_allocation", fy=fy),
        lines=lines,
        carry={"expected_total_cents": str(preview["total_cents"])},
        button=f"Confirm: commit FY {fy}",
        back=url_for("pages.allocation", fy=fy),
        warning=warning,
    )


@bp.post("/authority/allocations/<int:fy>/commit", endpoint="commit_allocation")
@roles_required("authority")
def commit_allocation(fy: int) -> ResponseReturnValue:
    who, rules, on = actor(), ruleset(), today()
    if confirm.confirmed():
        # What is committed must be what was reviewed: a new application in between
        # changes the figures, so it goes back to the review.
        with ReadOnly(engine()) as conn:
            preview = tech_allocations.preview_allocation(conn, actor(), fy, rules)
        changed = request.form.get("expected_total_cents") != str(preview["total_cents"])
        if changed and not preview["committed"]:
            return _review_commit(fy, changed=True)
    else:
        with ReadOnly(engine()) as conn:
            preview = tech_allocations.preview_allocation(conn, actor(), fy, rules)
        intake_open = today() <= tech_caps.deadline(fy, rules)
        if preview["allocations"] and not preview["committed"] and not intake_open:
            return _review_commit(fy, changed=False)
    ok, result, status = forms.attempt(
        lambda: runner.run(
            engine(), lambda uow: tech_allocations.commit_allocation(uow, who, fy, rules, on)
        )
    )
    if not ok:
        return _render(fy, status)
    flash(
        f"FY {fy} allocation committed: {forms.dollars(result['total_cents'])} in "
        f"{sum(1 for a in result['allocations'] if a['certificate_id'])} TECH certificates.",
        "success",
    )
    return redirect(url_for("pages.allocation", fy=fy))
