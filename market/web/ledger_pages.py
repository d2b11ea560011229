"""The ledger explorer: events page by page, a stream's history, verification status."""

from __future__ import annotations

from flask import current_app, render_template, request
from flask.typing import ResponseReturnValue

from market.services import ledger, trust_recent
from market.services.checkpoints import TrustSettings
from market.web.pages import actor, bp, engine, roles_required


@bp.get("/ledger", endpoint="ledger")
@roles_required("authority", "auditor")
def ledger_page() -> ResponseReturnValue:
    after = max(0, request.args.get("after", 0, type=int))
    stream = request.args.get("stream") or None
    items, nxt = ledger.events_page(engine(), actor(), after, 50, stream=stream)
    # The incremental check from the last signed checkpoint: never the whole ledger in a
    # request (that is `flask verify`).
    report = (
        trust_recent.verify_recent_for(
            engine(),
            actor(),
            TrustSettings.from_config(current_app.config, current_app.instance_path),
        )
        if request.args.get("verify")
        else None
    )
    head_seq, head_hash = ledger.head_of(engine())
    return render_template(
        "ledger.html",
        events=items,
        next=nxt,
        after=after,
        stream=stream,
        report=report,
        head_seq=head_seq,
        head_hash=head_hash,
    )
