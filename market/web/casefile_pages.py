"""A TECH application's case file page (RULES.md section 7): its checklist, exhibits and
steps, each for the role that takes it: the seller files exhibits and submits; the
Authority grants preliminary approval, forwards to Taxation and records the valuation.
The irreversible steps are reviewed, then confirmed (confirm.py). Exhibits are uploaded
here for any subject and downloaded by those who may see them."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from market import document_uploads
from market.adapters.repositories.casefiles import application_on_file
from market.domain.commands.casefiles import RecordTaxCertificate
from market.domain.errors import DomainError
from market.services.casefiles import checklists, documents, tech_steps
from market.services.kernel import runner
from market.services.kernel.uow import ReadOnly
from market.services.tech import tech
from market.web import confirm, forms
from market.web.base import actor, bp, engine, roles_required


def _view(application_id: str) -> dict[str, Any]:
    with ReadOnly(engine()) as conn:
        try:
            app = dict(tech.get_application(conn, actor(), application_id))
        except DomainError:
            abort(404)
        case = checklists.for_application(conn, application_on_file(app))
        filed = documents.of_subject(conn, "tech_application", application_id)
    return {"app": app, "case": case, "documents": filed}


def _render(application_id: str, status: int = 200) -> ResponseReturnValue:
    return render_template("casefile_tech.html", **_view(application_id)), status


@bp.get("/casefiles/tech/<application_id>", endpoint="casefile_tech")
@roles_required("authority", "participant", "auditor")
def casefile_tech(application_id: str) -> ResponseReturnValue:
    return _render(application_id)


@bp.post("/documents/upload", endpoint="upload_document")
@roles_required("authority", "participant")
def upload_document() -> ResponseReturnValue:
    """The upload form on a subject's page; back to that page, the exhibit filed or the
    refusal in words."""
    who, form = actor(), request.form
    back = form.get("back") or "/"
    if not back.startswith("/") or back.startswith("//"):
        back = "/"
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        flash("Choose a file to upload.", "error")
        return redirect(back)
    new = documents.NewDocument(
        kind=(form.get("kind") or "").strip(),
        subject_type=(form.get("subject_type") or "").strip(),
        subject_id=(form.get("subject_id") or "").strip()[:40],
        filename=upload.filename,
        data=upload.read(document_uploads.max_bytes() + 1),
    )
    store, limit = document_uploads.store(), document_uploads.max_bytes()
    ok, row, _ = forms.attempt(
        lambda: runner.run(
            engine(), lambda uow: documents.file_document(uow, who, store, new, limit)
        )
    )
    if ok:
        flash(
            f"Filed {row['kind'].replace('_', ' ')}, version {row['version']} "
            f"(SHA-256 {row['sha256'][:16]}…).",
            "success",
        )
    return redirect(back)


@bp.get("/documents/<document_id>/download", endpoint="download_document")
@roles_required("authority", "participant", "auditor")
def download_document(document_id: str) -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        try:
            row, data = documents.content(conn, actor(), document_uploads.store(), document_id)
        except DomainError:
            abort(404)
    name = "".join(c for c in str(row["filename"]) if c.isalnum() or c in "._-") or "document"
    return Response(
        data,
        mimetype=str(row["media_type"]),
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "X-Content-Type-Options": "nosniff",
        },
    )


STEPS = {
    "submit": ("Submit the application", "participant"),
    "preliminary": ("Grant preliminary approval", "authority"),
    "forward": ("Forward to the Division of Taxation", "authority"),
    "tax-certificate": ("Record Taxation's tax certificate", "authority"),
}


def _lines(step: str, form: Any) -> list[tuple[str, str]]:
    if step == "preliminary":
        return [("Conditions", form.get("conditions") or "none")]
    if step == "tax-certificate":
        return [
            ("Benefit valued", f"${form.get('benefit') or ''}"),
            ("Tax certificate", form.get("certificate_number") or ""),
            ("Issued on", form.get("issued_on") or ""),
        ]
    return [("Step", STEPS[step][0])]


def _run(step: str, application_id: str) -> Any:
    who, form = actor(), request.form
    if step == "submit":
        return lambda uow: tech_steps.submit(uow, who, application_id)
    if step == "preliminary":
        conditions = [c for c in (form.get("conditions") or "").splitlines() if c.strip()]
        return lambda uow: tech_steps.preliminary_approval(uow, who, application_id, conditions)
    if step == "forward":
        return lambda uow: tech_steps.forward(uow, who, application_id)
    benefit = forms.required_cents(form, "benefit", "The benefit valued")
    try:
        issued = date.fromisoformat(form.get("issued_on") or "")
    except ValueError:
        raise forms.FormError("Issued on must be a date.", "issued_on") from None
    number = form.get("certificate_number") or ""
    return lambda uow: tech_steps.tax_certificate(
        uow, who, RecordTaxCertificate(application_id, benefit, number, issued)
    )


@bp.post("/casefiles/tech/<application_id>/<step>", endpoint="casefile_step")
@roles_required("authority", "participant")
def casefile_step(application_id: str, step: str) -> ResponseReturnValue:
    """Review (the first post), then confirm (`confirm=yes`): each step is for good."""
    if step not in STEPS:
        abort(404)
    title, role = STEPS[step]
    if actor().role != role:
        abort(403)
    page = url_for("pages.casefile_tech", application_id=application_id)
    if not confirm.confirmed():
        carry = {k: v for k, v in request.form.items() if k not in ("csrf_token", "confirm")}
        return confirm.review(
            title=title,
            action=url_for("pages.casefile_step", application_id=application_id, step=step),
            lines=_lines(step, request.form),
            carry=carry,
            button=title,
            back=page,
            warning="This step is recorded in the ledger for good.",
        )
    ok, _, status = forms.attempt(lambda: runner.run(engine(), _run(step, application_id)))
    if not ok:
        return _render(application_id, status)
    flash(f"{title}: done.", "success")
    return redirect(page)
