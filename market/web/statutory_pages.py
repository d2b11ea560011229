"""The statutory reports as pages (PRODUCT.md 9.2): /reports/statutory/ lists them; each
report for a fiscal year prints cleanly on A4 or Letter (`?paper=a4|letter`;
static/statutory-print.css: page numbers, table headers repeated), with server-drawn SVG
charts beside tables of the exact figures, and the same report as CSV and JSON."""

from __future__ import annotations

from typing import Any

from flask import Response, abort, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from market.domain.values import fiscal_year
from market.services.kernel import clock
from market.services.kernel.uow import ReadOnly
from market.services.records import statutory
from market.services.records.statutory_csv import report_csv
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.statutory_charts import bars

TITLES = {
    "tech-program": "Technology business tax certificate transfer program (TECH)",
    "digital-media": "Digital media tax credit",
    "distribution": "Credits by industry, size and jobs",
}
PAPERS = ("a4", "letter")


def _fiscal_year() -> int:
    return request.args.get("fiscal_year", fiscal_year(clock.today()), type=int)


def _report(report: str, fy: int) -> dict[str, Any]:
    if report not in statutory.REPORTS:
        abort(404)
    with ReadOnly(engine()) as conn:
        return statutory.statutory_report(conn, actor(), report, fy, ruleset())


def _charts(report: str, r: dict[str, Any]) -> list[Markup]:
    fy = r["fiscal_year"]
    if report == "tech-program":
        d = r["demand"]
        return [
            bars(
                f"TECH requested and allocated, FY {fy}",
                [
                    ("Zone, requested", d["zone"]["requested_cents"]),
                    ("Zone, allocated", d["zone"]["allocated_cents"]),
                    ("Other, requested", d["other"]["requested_cents"]),
                    ("Other, allocated", d["other"]["allocated_cents"]),
                ],
            ),
            bars(
                f"TECH credit bought by the buyer's industry, FY {fy}",
                [(f"NAICS {b['key']}", b["amount_cents"]) for b in r["buyers"]["by_industry"]],
            ),
        ]
    if report == "digital-media":
        return [
            bars(
                f"Digital media credits by program and tax, FY {fy}",
                [(row["key"], row["face_cents"]) for row in r["by_program_and_tax"]],
            )
        ]
    return [
        bars(
            f"Credits granted by industry, FY {fy}",
            [(f"NAICS {g['key']}", g["cents"]) for g in r["by_industry"]["granted"]],
        ),
        bars(
            f"Credits granted by employees, FY {fy}",
            [(g["key"], g["cents"]) for g in r["by_size"]["granted"]],
        ),
    ]


@bp.get("/reports/statutory/", endpoint="statutory_reports")
@roles_required("authority", "auditor")
def statutory_index() -> ResponseReturnValue:
    return render_template("statutory_index.html", titles=TITLES, fy=_fiscal_year())


@bp.get("/reports/statutory/<report>", endpoint="statutory_report")
@roles_required("authority", "auditor")
def statutory_report(report: str) -> ResponseReturnValue:
    fy = _fiscal_year()
    r = _report(report, fy)
    paper = request.args.get("paper", "a4")
    if paper not in PAPERS:
        paper = "a4"
    return render_template(
        f"statutory_{report.replace('-', '_')}.html",
        r=r,
        fy=fy,
        report=report,
        title=TITLES[report],
        charts=_charts(report, r),
        paper=paper,
    )


@bp.get("/reports/statutory/<report>.csv", endpoint="statutory_report_csv")
@roles_required("authority", "auditor")
def statutory_report_csv(report: str) -> Response:
    fy = _fiscal_year()
    body = report_csv(_report(report, fy))
    return Response(
        body,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{report}-fy{fy}.csv"'},
    )


@bp.get("/reports/statutory/<report>.json", endpoint="statutory_report_json")
@roles_required("authority", "auditor")
def statutory_report_json(report: str) -> ResponseReturnValue:
    return jsonify(_report(report, _fiscal_year()))
