"""Pages a buyer and a seller follow their deals on: the inbox, "My offers and
purchases", "My sales", and each deal's timeline with its next step."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from market.domain.errors import DomainError
from market.services.kernel import clock, lookups, runner
from market.services.kernel.reads import repositories
from market.services.kernel.uow import ReadOnly
from market.services.notify import inbox
from market.services.queries import deal_room, deal_views, deals
from market.services.tech import tech
from market.services.trading import deal_messages
from market.validation.error_codes import status_of
from market.web.base import ALL_ROLES, actor, bp, engine, roles_required, ruleset


@bp.app_context_processor
def _unread() -> dict[str, Any]:
    """The header's unread count (one indexed count per signed-in page)."""
    if not current_user.is_authenticated:
        return {"unread_count": 0}
    return {"unread_count": inbox.unread_count(engine(), actor())}


@bp.get("/notifications", endpoint="notifications")
@roles_required(*ALL_ROLES)
def notifications_page() -> ResponseReturnValue:
    before = request.args.get("before", type=int)
    items, nxt = inbox.list_notifications(engine(), actor(), before, 50)
    return render_template("notifications.html", items=items, next=nxt)


@bp.post("/notifications/<notification_id>/read", endpoint="read_notification")
@roles_required(*ALL_ROLES)
def read_notification(notification_id: str) -> ResponseReturnValue:
    note = inbox.mark_read(engine(), actor(), notification_id)
    if request.form.get("follow") and note["link"]:
        return redirect(note["link"])
    return redirect(url_for("pages.notifications"))


DEALS_PER_PAGE = 50


def _deals_page(side: str, title: str) -> ResponseReturnValue:
    after = request.args.get("after", type=int)
    with ReadOnly(engine()) as conn:
        items, nxt = deals.my_deals(conn, actor(), side, after, DEALS_PER_PAGE)
        names = lookups.names_of(
            conn, [p for d in items for p in (d.seller_party_id, d.buyer_party_id)]
        )
    return render_template(
        "deals.html", items=items, names=names, side=side, title=title, next=nxt, after=after
    )


@bp.get("/deals/buying", endpoint="my_purchases")
@roles_required("participant")
def my_purchases() -> ResponseReturnValue:
    return _deals_page("buyer", "My offers and purchases")


@bp.get("/deals/selling", endpoint="my_sales")
@roles_required("participant")
def my_sales() -> ResponseReturnValue:
    return _deals_page("seller", "My sales")


def _deal(kind: str, key: str) -> ResponseReturnValue:
    me = actor()
    item: Mapping[str, Any]  # the deal's body: trading's offer, a TECH or credit application
    with ReadOnly(engine()) as conn:
        try:
            if kind == "offer":
                item = deals.get_offer(conn, me, key)
                if item.get("transfer_id"):  # the deal goes on as a transfer: one room
                    return redirect(url_for("pages.deal_transfer", transfer_id=item["transfer_id"]))
            elif kind == "tech":
                app = tech.get_application(conn, me, key)
                life = deal_views.tech_fields(conn, str(app["id"]), app["fiscal_year"])
                item = {**app, **life}
            else:
                item = deals.get_credit_application(conn, me, key)
        except DomainError as e:
            abort(404 if status_of(e) in (403, 404) else status_of(e))
        named = (item.get(k) for k in ("seller_party_id", "buyer_party_id", "party_id"))
        names = lookups.names_of(conn, [p for p in named if isinstance(p, str)])
        cert_id = item.get("certificate_id")
        cert = repositories(conn).certificates.get(str(cert_id)) if cert_id else None
    return render_template(
        "deal.html", kind=kind, item=item, names=names, certificate=dict(cert) if cert else None
    )


def render_transfer_room(transfer_id: str, status: int = 200) -> ResponseReturnValue:
    """The transfer's deal room; a refused form posted from it comes back here, its
    message beside its field, with what was typed."""
    with ReadOnly(engine()) as conn:
        try:
            room = deal_room.transfer_room(conn, actor(), transfer_id)
            room = replace(room, messages=tuple(deal_messages.messages(conn, transfer_id)))
        except DomainError as e:
            abort(404 if status_of(e) in (403, 404) else status_of(e))
    return render_template(
        "deal_room.html", room=room, form=request.form, today=clock.today().isoformat()
    ), status


def from_deal_room() -> bool:
    """Whether a deal's form was posted from its deal room (it answers there)."""
    return request.form.get("from") == "deal"


@bp.get("/deals/transfers/<transfer_id>", endpoint="deal_transfer")
@roles_required(*ALL_ROLES)
def deal_transfer(transfer_id: str) -> ResponseReturnValue:
    return render_transfer_room(transfer_id)


@bp.post("/deals/transfers/<transfer_id>/messages", endpoint="deal_message")
@roles_required("participant")
def deal_message(transfer_id: str) -> ResponseReturnValue:
    """A party writes to the other in the deal room; refused, it answers there with the
    message beside the field and the text as typed."""
    who, body = actor(), request.form.get("body", "")

    try:
        runner.run(engine(), lambda uow: deal_messages.post_message(uow, who, transfer_id, body))
    except DomainError as e:
        if status_of(e) == 404:
            abort(404)
        flash(e.message, "error")
        g.field_errors = {"body": e.message}
        return render_transfer_room(transfer_id, status_of(e))
    flash("Message sent.", "success")
    return redirect(url_for("pages.deal_transfer", transfer_id=transfer_id) + "#messages")


@bp.get("/deals/offers/<offer_id>", endpoint="deal_offer")
@roles_required(*ALL_ROLES)
def deal_offer(offer_id: str) -> ResponseReturnValue:
    return _deal("offer", offer_id)


@bp.get("/deals/tech/<application_id>", endpoint="deal_tech")
@roles_required(*ALL_ROLES)
def deal_tech(application_id: str) -> ResponseReturnValue:
    return _deal("tech", application_id)


@bp.get("/deals/credit-applications/<application_id>", endpoint="deal_credit")
@roles_required(*ALL_ROLES)
def deal_credit(application_id: str) -> ResponseReturnValue:
    return _deal("credit", application_id)


@bp.get("/status", endpoint="public_status_form")
def public_status_form() -> ResponseReturnValue:
    reference = request.args.get("reference", "").strip()
    if reference:
        return redirect(url_for("pages.public_status", reference=reference))
    return render_template("public_status.html", status=None, reference="")


@bp.get("/status/<reference>", endpoint="public_status")
def public_status_page(reference: str) -> ResponseReturnValue:
    """Anyone, signed in or not: the filing's status, next step and deadline."""
    from market.services.queries import public_status

    try:
        found = public_status.status(engine(), reference[:64], ruleset())
    except DomainError:
        return render_template("public_status.html", status=None, reference=reference), 404
    return render_template("public_status.html", status=found, reference=reference)
