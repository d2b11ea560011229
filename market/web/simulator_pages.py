"""The live TECH cap meter page (PRODUCT.md 8.3): the Authority's meter and simulated
allocation, or a participant's own rows and lifetime headroom."""

from __future__ import annotations

from flask import render_template, request
from flask.typing import ResponseReturnValue

from market.domain.values import fiscal_year as fiscal_year_of
from market.services.kernel import clock, lookups
from market.services.kernel.uow import ReadOnly
from market.services.tech import simulator
from market.web.base import actor, bp, engine, roles_required, ruleset

SHOWN_ROWS = 500  # the page lists the first rows; the API answers with all of them


@bp.get("/tech/cap-meter")
@roles_required("authority", "auditor", "participant")
def cap_meter() -> ResponseReturnValue:
    text = (request.args.get("fiscal_year") or "").strip()
    error = None
    fy = fiscal_year_of(clock.today())
    if text:
        if text.isdigit() and 1990 <= int(text) <= 2200:
            fy = int(text)
        else:
            error = f"The fiscal year must be a year such as 2013, not {text!r}."
    with ReadOnly(engine()) as conn:
        sim = simulator.simulate(conn, actor(), fy, ruleset())
        rows = sim["allocations"]
        names = lookups.names_of(conn, [r.get("party_id") for r in rows[:SHOWN_ROWS]])
    return (
        render_template(
            "cap_meter.html",
            sim=sim,
            rows=rows[:SHOWN_ROWS],
            hidden=max(0, len(rows) - SHOWN_ROWS),
            error=error,
            names=names,
        ),
        400 if error else 200,
    )
