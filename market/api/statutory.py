"""The reports the statute asks for (PRODUCT.md 9.2): the TECH program report, the
digital media report and the Director's distribution view, for one fiscal year, as JSON
or CSV (authority, auditor)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine, ruleset
from market.api.exports import CSV
from market.api.statutory_schemas import DigitalMediaOut, DistributionOut, TechProgramOut
from market.services.kernel.uow import ReadOnly
from market.services.records import statutory
from market.services.records.statutory_csv import report_csv

blp = Blueprint(
    "statutory",
    __name__,
    url_prefix="/api/v1/reports/statutory",
    description="Statutory reports",
)


class FiscalYearArgs(Schema):
    fiscal_year = fields.Integer(strict=False, required=True, validate=validate.Range(1900, 2200))


def _report(report: str, fiscal_year: int) -> dict[str, Any]:
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        return statutory.statutory_report(conn, actor, report, fiscal_year, ruleset())


def _csv(report: str, fiscal_year: int) -> Response:
    body = report_csv(_report(report, fiscal_year))
    name = f"{report}-fy{fiscal_year}.csv"
    return Response(
        body, mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@blp.route("/tech-program", methods=["GET"])
@blp.arguments(FiscalYearArgs, location="query")
@blp.alt_response(200, schema=TechProgramOut)
def tech_program(args: dict[str, Any]) -> ResponseReturnValue:
    """The Authority's TECH program report for a fiscal year."""
    return jsonify(_report("tech-program", args["fiscal_year"]))


@blp.route("/tech-program.csv", methods=["GET"])
@blp.arguments(FiscalYearArgs, location="query")
@blp.doc(responses={"200": {"description": "The report as CSV", "content": {"text/csv": CSV}}})
def tech_program_csv(args: dict[str, Any]) -> ResponseReturnValue:
    """The TECH program report as CSV (path, value)."""
    return _csv("tech-program", args["fiscal_year"])


@blp.route("/digital-media", methods=["GET"])
@blp.arguments(FiscalYearArgs, location="query")
@blp.alt_response(200, schema=DigitalMediaOut)
def digital_media(args: dict[str, Any]) -> ResponseReturnValue:
    """The digital media credit report for a fiscal year."""
    return jsonify(_report("digital-media", args["fiscal_year"]))


@blp.route("/digital-media.csv", methods=["GET"])
@blp.arguments(FiscalYearArgs, location="query")
@blp.doc(responses={"200": {"description": "The report as CSV", "content": {"text/csv": CSV}}})
def digital_media_csv(args: dict[str, Any]) -> ResponseReturnValue:
    """The digital media report as CSV (path, value)."""
    return _csv("digital-media", args["fiscal_year"])


@blp.route("/distribution", methods=["GET"])
@blp.arguments(FiscalYearArgs, location="query")
@blp.alt_response(200, schema=DistributionOut)
def distribution(args: dict[str, Any]) -> ResponseReturnValue:
    """Credits granted, sold and used by industry, size class and jobs (the Director's)."""
    return jsonify(_report("distribution", args["fiscal_year"]))


@blp.route("/distribution.csv", methods=["GET"])
@blp.arguments(FiscalYearArgs, location="query")
@blp.doc(responses={"200": {"description": "The report as CSV", "content": {"text/csv": CSV}}})
def distribution_csv(args: dict[str, Any]) -> ResponseReturnValue:
    """The distribution view as CSV (path, value)."""
    return _csv("distribution", args["fiscal_year"])
