"""/account/webhooks: a party's webhook subscriptions, their state and delivery log,
paused, resumed and deleted from the page (the same services as /api/v1/webhooks)."""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from market.services.notify import webhooks
from market.web.base import actor, bp, engine, roles_required

OWNERS = ("authority", "participant")


@bp.get("/account/webhooks")
@roles_required(*OWNERS)
def account_webhooks() -> ResponseReturnValue:
    hooks = webhooks.list_for(engine(), actor())
    return render_template("account_webhooks.html", hooks=hooks)


@bp.get("/account/webhooks/<webhook_id>")
@roles_required(*OWNERS)
def account_webhook(webhook_id: str) -> ResponseReturnValue:
    hook = webhooks.load(engine(), actor(), webhook_id)
    log, _ = webhooks.deliveries(engine(), actor(), webhook_id, None, 100)
    return render_template(
        "account_webhook.html",
        hook=hook,
        deliveries=list(reversed(log)),
    )


@bp.post("/account/webhooks/<webhook_id>/<action>")
@roles_required(*OWNERS)
def account_webhook_action(webhook_id: str, action: str) -> ResponseReturnValue:
    done = {
        "pause": (webhooks.pause, "paused: its messages wait until you resume it"),
        "resume": (webhooks.resume, "resumed: what waited is sent now"),
        "delete": (webhooks.delete, "deleted"),
    }
    if action not in done:
        return redirect(url_for("pages.account_webhooks"))
    run, said = done[action]
    run(engine(), actor(), webhook_id)
    flash(f"The webhook is {said}.", "info")
    if action == "delete":
        return redirect(url_for("pages.account_webhooks"))
    return redirect(url_for("pages.account_webhook", webhook_id=webhook_id))
