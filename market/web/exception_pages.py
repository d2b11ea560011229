"""The Director's exception (PT-7, AMB-53; `/authority/parties/director-exception`): the
Authority records the Director's letting an individual buy a GIT credit directly, whose
§40 ratio is then 1. The individual is picked by name; the review runs the service's own
check (only an individual may have one; a reason is needed) before the confirmation."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market.services.kernel.uow import ReadOnly
from market.services.parties import director_exceptions
from market.services.queries import pickers
from market.validation.parties import ExceptionIn
from market.web import confirm
from market.web.base import actor, bp, engine, roles_required
from market.web.fields import Fields


def render(status: int = 200) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        choices = pickers.party_choices(conn)
        excepted = director_exceptions.excepted_parties(conn)
    page = render_template(
        "director_exception.html", parties=choices, excepted=excepted, form=request.form
    )
    return page, status


@bp.get("/authority/parties/director-exception", endpoint="director_exception")
@roles_required("authority")
def exception_page() -> ResponseReturnValue:
    return render()


@bp.post("/authority/parties/director-exception", endpoint="record_director_exception")
@roles_required("authority")
def record_exception() -> ResponseReturnValue:
    who, f = actor(), Fields(request.form)
    with ReadOnly(engine()) as conn:
        party = f.read("party", lambda: pickers.resolve_party(conn, f.form.get("party", "")))
    loaded = f.load(ExceptionIn(), {"reason": f.text("reason")}, {"reason": "reason"})
    if not f.ok or party is None or loaded is None:
        return render(f.refuse())
    reason = str(loaded["reason"])

    def review(after: dict[str, Any]) -> ResponseReturnValue:
        return confirm.review(
            title="Record the Director's exception",
            action=url_for("pages.record_director_exception"),
            lines=[
                ("Individual", party["label"]),
                ("The Director's reason", reason),
                (
                    "What it changes",
                    f"{after['name']} may buy a GIT credit directly; its section 40 ratio "
                    "is 1 (PT-7, AMB-53).",
                ),
            ],
            carry={"party": party["id"], "reason": reason},
            button="Confirm: record the exception",
            back=url_for("pages.director_exception"),
            warning="Recording appends DIRECTOR_EXCEPTION_RECORDED to the party's history; "
            "it cannot be undone.",
        )

    def done(after: dict[str, Any]) -> ResponseReturnValue:
        flash(f"The Director's exception is recorded for {after['name']}.", "success")
        return redirect(url_for("pages.director_exception"))

    return confirm.rehearsed(
        engine(),
        lambda uow: director_exceptions.record_exception(uow, who, party["id"], reason),
        refused=render,
        review_of=review,
        done=done,
    )
