"""The Authority's irreversible writes from its desk: issuing a certificate and assessing a
recapture. The holder or party is picked by name (`Name · tax id`, type-ahead without
JavaScript), never defaulted; amounts must be more than zero, as the API requires; and
each shows exactly what it will write and asks for a confirmation (web/confirm)."""

from __future__ import annotations

from typing import Any

from flask import request, url_for
from flask.typing import ResponseReturnValue

from market.services.casefiles import uth_fees
from market.services.certificates import certificates, recaptures
from market.services.kernel import runner
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.queries import pickers
from market.validation import RecaptureIn
from market.web import confirm, forms
from market.web.authority_pages import FUNDS, ISSUABLE, PROGRAMS, done, render_desk
from market.web.base import actor, bp, engine, roles_required, ruleset
from market.web.fields import Fields


def _read_issue(f: Fields) -> tuple[certificates.NewCertificate, pickers.PartyChoice] | None:
    form = f.form
    program = form.get("program") or ""
    if program not in ISSUABLE:
        f.errors["program"] = "Choose the program."
    with ReadOnly(engine()) as conn:
        holder = f.read(
            "holder", lambda: pickers.resolve_party(conn, form.get("holder", ""), "holder")
        )
    face = f.positive_cents("face", "The face amount")
    fy = f.read("fiscal_year", lambda: forms.required_int(form, "fiscal_year", "The fiscal year"))
    credit_year = f.read(
        "credit_year",
        lambda: forms.integer(form, "credit_year", "The credit year", required=False),
    )
    award = f.read("retained_jobs", lambda: _brrag_award(form)) if program == "BRRAG" else {}
    if not f.ok or holder is None or face is None or fy is None or award is None:
        return None
    new = certificates.NewCertificate(
        program=program,
        holder_party_id=holder["id"],
        face_cents=face,
        fiscal_year=fy,
        credit_year=credit_year,
        **award,
    )
    return new, holder


BRRAG_FIELDS = ("retained_jobs", "award_years", "nj_operations_since", "cannot_use_before_expiry")


def _brrag_award(form: Any) -> dict[str, Any]:
    """BR-1, BR-2, BR-6: the award's facts, asked of a BRRAG issuance only."""
    since = form.get("nj_operations_since", "").strip()
    return {
        "retained_jobs": forms.integer(form, "retained_jobs", "The retained jobs", required=False),
        "award_years": forms.integer(form, "award_years", "The years covered", required=False),
        "nj_operations_since": forms.day(form, "nj_operations_since", "Operating since")
        if since
        else None,
        "cannot_use_before_expiry": form.get("cannot_use_before_expiry") == "yes",
    }


@bp.post("/authority/certificates", endpoint="issue_certificate")
@roles_required("authority")
def issue_certificate() -> ResponseReturnValue:
    who, rules, f = actor(), ruleset(), Fields(request.form)
    read = _read_issue(f)
    if read is None:
        return render_desk(f.refuse())
    new, holder = read

    def issue(uow: UnitOfWork) -> dict[str, Any]:
        return uth_fees.issue_certificate(uow, who, new, rules)

    if not confirm.confirmed():
        # The review runs the very issuance (rolled back): a face the award or the cap
        # refuses is refused here, before Confirm (issue 28).
        ok, _, status = forms.attempt(lambda: runner.rehearse(engine(), issue))
        if not ok:
            return render_desk(status)
        lines = [
            ("Program", new.program),
            ("Holder", holder["label"]),
            ("Face", forms.dollars(new.face_cents)),
            ("Fiscal year", f"FY {new.fiscal_year}"),
        ]
        if new.credit_year is not None:
            lines.append(("Credit year", str(new.credit_year)))
        if new.program == "BRRAG":
            lines += [
                ("Retained full-time jobs", str(new.retained_jobs)),
                ("Years covered", str(new.award_years)),
                ("Operating in New Jersey since", str(new.nj_operations_since or "not given")),
                (
                    "Cannot use the credits before they expire",
                    "determined" if new.cannot_use_before_expiry else "not determined",
                ),
            ]
        return confirm.review(
            title=f"Issue a {new.program} certificate",
            action=url_for("pages.issue_certificate"),
            lines=lines,
            carry={
                k: request.form.get(k, "")
                for k in ("program", "face", "fiscal_year", "credit_year", *BRRAG_FIELDS)
            }
            | {"holder": holder["label"]},  # words, as typed: never the id
            button="Confirm: issue the certificate",
            back=url_for("pages.authority") + "#issue",
            warning="Issuing records a CERT_ISSUED event and charges the program's cap; "
            "it cannot be undone (a wrong certificate can only be recaptured).",
        )
    ok, cert, status = forms.attempt(lambda: runner.run(engine(), issue))
    if not ok:
        return render_desk(status)
    queued = (
        f"; {forms.dollars(cert['queued_cents'])} of it waits in the queue for the cap"
        if cert["queued_cents"]
        else ""
    )
    return done(
        f"Certificate {cert['number']} issued to {holder['label']} for "
        f"{forms.dollars(cert['face_cents'])}{queued}.",
        url_for("pages.certificate", certificate_id=cert["id"]),
    )


def _read_recapture(f: Fields) -> tuple[recaptures.NewRecapture, list[tuple[str, str]]] | None:
    form = f.form
    with ReadOnly(engine()) as conn:
        party = f.read("party", lambda: pickers.resolve_party(conn, form.get("party", "")))
        typed = (form.get("certificate") or "").strip()
        cert = (
            f.read("certificate", lambda: pickers.resolve_certificate(conn, typed))
            if typed
            else None
        )
    program = form.get("program") or None
    if program is not None and program not in PROGRAMS:
        f.errors["program"] = "Choose a program from the list."
    if cert is None and program is None and not typed:
        f.errors["program"] = "Choose the program, or name the certificate."
    reason = f.read("reason", lambda: forms.required_text(form, "reason", "The reason"))
    data = {
        "party_id": party["id"] if party else None,
        "certificate_id": cert["id"] if cert else None,
        "program": program,
        "amount_cents": f.cents("amount", "The amount"),
        "reason": reason,
    }
    names = {
        "party_id": "party",
        "certificate_id": "certificate",
        "program": "program",
        "amount_cents": "amount",
        "reason": "reason",
    }
    loaded = f.load(RecaptureIn(), data, names)  # the API's bounds: more than $0, 500 chars
    if not f.ok or party is None or loaded is None or reason is None:
        return None
    new = recaptures.NewRecapture(**loaded)
    amount = new.amount_cents
    lines = [
        ("Assessed against", party["label"]),
        ("Amount", forms.dollars(amount)),
        ("Certificate", f"{cert['number']} ({cert['program']})" if cert else "none named"),
        ("Program", program or (cert["program"] if cert else "")),
        ("Reason", reason),
    ]
    return new, lines


@bp.post("/authority/recaptures", endpoint="assess_recapture")
@roles_required("authority")
def assess_recapture() -> ResponseReturnValue:
    who, f = actor(), Fields(request.form)
    read = _read_recapture(f)
    if read is None:
        return render_desk(f.refuse())
    new, lines = read

    def assess(uow: UnitOfWork) -> recaptures.AssessedRecapture:
        return recaptures.assess_recapture(uow, who, new)

    if not confirm.confirmed():
        ok, _, status = forms.attempt(lambda: runner.rehearse(engine(), assess))
        if not ok:
            return render_desk(status)
        return confirm.review(
            title="Assess a recapture",
            action=url_for("pages.assess_recapture"),
            lines=lines,
            carry={
                "party": new.party_id,
                "certificate": new.certificate_id or "",
                "program": new.program or "",
                "amount": request.form.get("amount", ""),
                "reason": new.reason,
            },
            button="Confirm: assess the recapture",
            back=url_for("pages.authority") + "#recapture",
            warning="A recapture records a RECAPTURE_ASSESSED event against this party and "
            "takes the amount from its usable balance; it cannot be undone.",
        )
    ok, r, status = forms.attempt(lambda: runner.run(engine(), assess))
    if not ok:
        return render_desk(status)
    return done(
        f"Recapture of {forms.dollars(r['amount_cents'])} assessed; "
        f"it goes to {FUNDS.get(r['fund'], r['fund'])}."
    )
