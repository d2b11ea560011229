"""Cap use per program and pool by fiscal year, with a chart and the table behind it."""

from __future__ import annotations

from flask import render_template, request
from flask.typing import ResponseReturnValue

from market.domain.values import fiscal_year
from market.services import certificates
from market.services.uow import ReadOnly
from market.web import charts
from market.web.pages import bp, engine, roles_required, ruleset, today


@bp.get("/reports/caps", endpoint="caps_report")
@roles_required("authority", "participant", "auditor")
def caps_report() -> ResponseReturnValue:
    fy = request.args.get("fiscal_year", fiscal_year(today()), type=int)
    with ReadOnly(engine()) as conn:
        report = certificates.caps_report(conn, fy, ruleset())
    rows = report["programs"]
    chart = charts.stacked_dollars(
        f"Cap use, FY {fy}",
        [r["program"] for r in rows],
        {
            "used": [r["used_cents"] for r in rows],
            "queued for a later year": [r["queued_cents"] for r in rows],
            "remaining": [r["remaining_cents"] for r in rows],
        },
    )
    return render_template("caps.html", report=report, chart=chart, fy=fy)
