"""Trading halts on the certificate page (PRODUCT.md 8.3): a banner when the certificate is
halted, the notices on it and its ancestors, and for the Authority the forms to issue a
recapture or invalidity notice and to lift one."""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from market.domain.rules.halts import NOTICE_KINDS
from market.services.certificates import halts
from market.services.kernel import runner
from market.services.kernel.actor import AUDITOR, AUTHORITY
from market.services.kernel.uow import ReadOnly
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required
from market.web.certificate_pages import render_certificate


@bp.app_context_processor
def _halt_helpers() -> dict[str, Any]:
    def certificate_notices(certificate_id: str) -> list[halts.Notice]:
        who = actor()
        if who.role not in (AUTHORITY, AUDITOR):
            return []
        with ReadOnly(engine()) as conn:
            return halts.list_notices(conn, who, certificate_id)

    return {"certificate_notices": certificate_notices, "notice_kinds": NOTICE_KINDS}


@bp.post("/authority/certificates/<certificate_id>/notices", endpoint="issue_notice")
@roles_required("authority")
def issue_notice(certificate_id: str) -> ResponseReturnValue:
    """A halt is reviewed first: the review rehearses it and names what it will halt."""
    who, form = actor(), request.form
    ok, read, status = forms.attempt(
        lambda: (
            forms.required_text(form, "kind", "The kind of notice"),
            forms.required_text(form, "reason", "The reason"),
        )
    )
    if not ok:
        return render_certificate(certificate_id, status)
    kind, reason = read
    back = url_for("pages.certificate", certificate_id=certificate_id)

    def review_of(notice: dict[str, Any]) -> ResponseReturnValue:
        return confirm.review(
            title="Halt trading in this certificate",
            action=url_for("pages.issue_notice", certificate_id=certificate_id),
            lines=[
                ("Notice", f"a {kind} notice"),
                ("Reason the holders will read", reason),
                (
                    "Certificates halted",
                    f"{len(notice['halted_certificate_ids'])} (this one "
                    "and every certificate derived from it)",
                ),
                ("Listings suspended", str(len(notice["suspended_listing_ids"]))),
            ],
            carry={"kind": kind, "reason": reason},
            button="Confirm: halt trading",
            back=back,
            warning="A halt records CERTIFICATE_NOTICE_ISSUED and suspends the listings; "
            "only lifting the notice resumes trading.",
        )

    def done(notice: dict[str, Any]) -> ResponseReturnValue:
        count = len(notice["halted_certificate_ids"])
        flash(
            f"Trading halted in {count} certificate{'s' if count != 1 else ''}; "
            f"{len(notice['suspended_listing_ids'])} listing(s) suspended.",
            "success",
        )
        return redirect(back)

    return confirm.rehearsed(
        engine(),
        lambda uow: halts.issue_notice(uow, who, certificate_id, kind, reason),
        refused=lambda code: render_certificate(certificate_id, code),
        review_of=review_of,
        done=done,
    )


@bp.post(
    "/authority/certificates/<certificate_id>/notices/<notice_id>/lift", endpoint="lift_notice"
)
@roles_required("authority")
def lift_notice(certificate_id: str, notice_id: str) -> ResponseReturnValue:
    who, form = actor(), request.form

    def act() -> Any:
        reason = forms.text(form, "reason", "The reason", required=False)
        return runner.run(
            engine(),
            lambda uow: halts.lift_notice(uow, who, certificate_id, notice_id, reason),
        )

    ok, notice, status = forms.attempt(act)
    if not ok:
        return render_certificate(certificate_id, status)
    flash(
        f"Notice lifted; {len(notice['resumed_listing_ids'])} listing(s) back on the market.",
        "success",
    )
    return redirect(url_for("pages.certificate", certificate_id=certificate_id))
