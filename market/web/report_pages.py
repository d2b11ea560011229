"""Reports: cap use per program and pool by fiscal year, and the price paid against face per
program over time with the same rows as the API's transfers.csv, searched, sorted and
paged; each a chart beside a table."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from flask import Response, render_template, request
from flask.typing import ResponseReturnValue

from market.domain.programs import Program
from market.domain.values import fiscal_year
from market.services.certificates import certificate_caps
from market.services.kernel.uow import ReadOnly
from market.services.queries import exports, list_search, report_totals
from market.services.trading.trading import today
from market.web import charts
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.price_chart import PROGRAM_NAMES, price_chart

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
        queued = certificate_caps.queued_certificates(conn, actor())
    rows = report["programs"]
    chart = charts.cap_shares(f"Cap use as a share of each cap, FY {fy}", rows, CAP_NAMES)
    return render_template(
        "caps.html", report=report, chart=chart, fy=fy, names=CAP_NAMES, queued=queued
    )


REPORT_PAGE = 25
PROGRAMS = tuple(p.value for p in Program)


def report_query() -> tuple[list_search.ListQuery, str | None]:
    """Search, program, status, sort and page from the query string, as on the market."""
    program = request.args.get("program") or None
    status = request.args.get("status") or None
    query = list_search.ListQuery(
        q=(request.args.get("q") or "")[:100],
        program=program if program in PROGRAMS else None,
        sort=request.args.get("sort", "oldest"),
        page=max(1, request.args.get("page", 1, type=int)),
        per_page=REPORT_PAGE,
    )
    return query, status if status in list_search.REPORT_STATUSES else None


@bp.get("/reports/transfers", endpoint="transfers_report")
@roles_required("authority", "auditor")
def transfers_report() -> ResponseReturnValue:
    """Totals and the chart from the approved transfers' sums per program and month of
    exchange (kept incrementally: services.report_totals); the table searched, sorted and
    paged in SQL (services.list_search), 25 transfers a page; the CSV has every row."""
    query, status = report_query()
    with ReadOnly(engine()) as conn:
        page = list_search.search_report_transfers(conn, actor(), query, status)
        months = report_totals.monthly_sums(conn)
    face = sum(m["amount_cents"] for m in months)
    paid = sum(m["consideration_cents"] for m in months)
    points: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for m in months:
        if m["month"] is None:
            continue
        ratio = Fraction(m["consideration_cents"], m["amount_cents"]) * 100
        name = PROGRAM_NAMES.get(m["program"], m["program"])
        points[name].append((m["month"], float(ratio)))  # display only; the table is exact
    chart = (
        price_chart(
            "Price paid per dollar, approved transfers",
            dict(points),
            "Month of exchange",
            "Paid, % of amount sold",
        )
        if points
        else None
    )
    args = {"q": query.q, "program": query.program or "", "status": status or ""}
    args["sort"] = query.sort
    return render_template(
        "transfers.html",
        rows=page.items,
        page=page,
        query=query,
        status=status,
        args={k: v for k, v in args.items() if v},
        sorts=list_search.REPORT_SORTS,
        statuses=list_search.REPORT_STATUSES,
        programs=PROGRAMS,
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
