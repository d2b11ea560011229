"""The covenant monitor page (PRODUCT.md 8.3), for the Authority and auditors."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from market.services.kernel.uow import ReadOnly
from market.services.tech import covenants
from market.web.base import actor, bp, engine, roles_required, ruleset


@bp.get("/monitor/covenants")
@roles_required("authority", "auditor")
def covenant_monitor() -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        report = covenants.covenant_monitor(conn, actor(), ruleset())
    return render_template("covenants.html", report=report)
