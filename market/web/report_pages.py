"""Reports: cap use per program and pool by fiscal year, and the price paid against face per
program over time with the same rows as the API's transfers.csv; each a chart beside a table."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from flask import Response, render_template, request
from flask.typing import ResponseReturnValue

from market.domain.values import fiscal_year
from market.services import certificate_caps, exports, report_totals
from market.services.trading import today
from market.services.uow import ReadOnly
from market.web import charts
from market.web.pages import actor, bp, engine, roles_required, ruleset

CAP_NAMES = {
    "BRRAG": "Business relocation (BRRAG)",
    "UTH": "Urban transit hub (UTH), this year",
    "UTH_CUMULATIVE": "Urban transit hub, lifetime",
    "DM_CBT": "Digital media, CBT pool",
    "DM_GIT_FILM_POOL": "Digital media, GIT film pool",
    "TECH": "Technology (TECH), this year",
    "TECH_ZONE_SET_ASIDE": "TECH innovation zone set-aside",
}


@bp.get("/reports/caps", endpoint="caps_report")
@roles_required("authority", "participant", "auditor")
def caps_report() -> ResponseReturnValue:
    fy = request.args.get("fiscal_year", fiscal_year(today()), type=int)
    with ReadOnly(engine()) as conn:
        report = certificate_caps.caps_report(conn, fy, ruleset())
    rows = report["programs"]
    chart = charts.cap_shares(f"Cap use as a share of each cap, FY {fy}", rows, CAP_NAMES)
    return render_template("caps.html", report=report, chart=chart, fy=fy, names=CAP_NAMES)


REPORT_PAGE = 50


@bp.get("/reports/transfers", endpoint="transfers_report")
@roles_required("authority", "auditor")
def transfers_report() -> ResponseReturnValue:
    """Totals and the chart from the approved transfers' sums per program and month of
    exchange (kept incrementally: services.report_totals), the table 50 transfers at a
    time (`?after=`); the CSV has every row."""
    after = request.args.get("after", type=int)
    with ReadOnly(engine()) as conn:
        rows = exports.transfer_rows(conn, after, REPORT_PAGE + 1)
        months = report_totals.monthly_sums(conn)
    face = sum(m["amount_cents"] for m in months)
    paid = sum(m["consideration_cents"] for m in months)
    more = len(rows) > REPORT_PAGE
    rows = rows[:REPORT_PAGE]
    points: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for m in months:
        if m["month"] is None:
            continue
        ratio = Fraction(m["consideration_cents"], m["amount_cents"]) * 100
        points[m["program"]].append((m["month"], float(ratio)))  # display only; the table is exact
    chart = charts.dated_points(
        "Price paid per dollar of credit (approved transfers, by month)",
        dict(points),
        "% of the amount sold",
    )
    return render_template(
        "transfers.html",
        rows=rows,
        next=rows[-1]["created_seq"] if more else None,
        chart=chart,
        approved_face=face,
        approved_paid=paid,
    )


@bp.get("/reports/transfers.csv", endpoint="transfers_csv")
@roles_required("authority", "auditor")
def transfers_csv() -> Response:
    """The same file as GET /api/v1/reports/transfers.csv, for a signed-in session;
    streamed."""
    return Response(
        exports.stream_transfers_csv(engine(), actor()),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="transfers.csv"'},
    )
