"""The public price tape page (PRODUCT.md 8.3): no sign-in needed."""

from __future__ import annotations

from collections.abc import Sequence

from flask import render_template, request
from flask.typing import ResponseReturnValue

from market.services.kernel.uow import ReadOnly
from market.services.trading import price_tape
from market.web.base import bp, engine
from market.web.price_chart import price_chart, series_name

PROGRAMS = ("BRRAG", "UTH", "DM_GIT", "DM_CBT", "TECH")


@bp.get("/price-tape")
def price_tape_page() -> ResponseReturnValue:
    program = request.args.get("program") or None
    year_text = (request.args.get("fiscal_year") or "").strip()
    error, fiscal_year = None, None
    if program is not None and program not in PROGRAMS:
        error, program = f"Unknown program {program!r}.", None
    if year_text:
        if year_text.isdigit() and 1900 <= int(year_text) <= 2200:
            fiscal_year = int(year_text)
        else:
            error = f"The vintage must be a fiscal year such as 2014, not {year_text!r}."
    with ReadOnly(engine()) as conn:
        tape = price_tape.price_tape_rows(conn, program, fiscal_year)
    points: dict[str, list[tuple[str, float]]] = {}
    for b in tape["items"]:
        # Display only (the table has the exact bps): the median, in percent of face.
        points.setdefault(series_name(b["program"], b["vintage"]), []).append(
            (b["quarter"], b["median_bps"] / 100)
        )
    series: dict[str, Sequence[tuple[str, float]]] = dict(points)
    chart = (
        price_chart(
            "Median price per dollar of credit",
            series,
            "Calendar quarter of approval",
            "Median price, % of face",
        )
        if series
        else None
    )
    return (
        render_template(
            "price_tape.html",
            tape=tape,
            programs=PROGRAMS,
            program=program,
            fiscal_year=fiscal_year,
            error=error,
            chart=chart,
        ),
        400 if error else 200,
    )
