"""The case file (PRODUCT.md 9.1, RULES.md section 7): exhibits, fees and their payments,
tax clearance certificates, and a TECH application's administrative steps."""

from __future__ import annotations

import hashlib
from typing import Any

from flask import Response, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import fields

from market import document_uploads
from market.api.blueprint import Blueprint
from market.api.casefile_schemas import (
    ClearanceIn,
    ClearanceOut,
    DocumentOut,
    FeeArgs,
    FeeOut,
    FeePaymentIn,
    PreliminaryIn,
    StepIn,
    TaxCertificateIn,
)
from market.api.context import command, current_actor, engine, ruleset
from market.api.schemas import page_of
from market.api.tech import TechApplicationOut
from market.domain.commands.casefiles import RecordClearance, RecordFeePayment, RecordTaxCertificate
from market.domain.errors import InvalidRequestError
from market.domain.model.case_file import Document, FeeView, TaxClearance
from market.services.casefiles import (
    checklists,
    clearances,
    documents,
    fees,
    media_types,
    tech_steps,
)
from market.services.kernel.runner import Idempotency, execute
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.tech import tech

blp = Blueprint("casefiles", __name__, url_prefix="/api/v1", description="Case files")

_UPLOAD_DOC = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file", "kind", "subject_type", "subject_id"],
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "kind": {"type": "string"},
                        "subject_type": {"type": "string"},
                        "subject_id": {"type": "string"},
                    },
                }
            }
        },
    }
}


def _upload() -> documents.NewDocument:
    form = request.form
    missing = [n for n in ("kind", "subject_type", "subject_id") if not form.get(n)]
    upload = request.files.get("file")
    if upload is None:
        missing.insert(0, "file")
    if missing:
        raise InvalidRequestError(
            f"A document needs {', '.join(missing)} (multipart form fields).",
            {"missing": missing},
        )
    assert upload is not None
    data = upload.read(document_uploads.max_bytes() + 1)
    if len(data) > document_uploads.max_bytes():
        documents.check_bytes(data, document_uploads.max_bytes())
    return documents.NewDocument(
        kind=str(form["kind"]).strip(),
        subject_type=str(form["subject_type"]).strip(),
        subject_id=str(form["subject_id"]).strip()[:40],
        filename=str(upload.filename or "document"),
        data=data,
    )


@blp.route("/documents", methods=["POST"])
@blp.doc(**_UPLOAD_DOC)
@blp.alt_response(201, schema=DocumentOut)
@blp.alt_response(413, description="larger than DOCUMENT_MAX_BYTES")
@blp.alt_response(415, description="not PDF, PNG, JPEG, CSV or XLSX (read from the bytes)")
def file_document() -> ResponseReturnValue:
    """File an exhibit against a party, registration, TECH application, transfer or
    certificate (the subject's party or the Authority)."""
    actor = current_actor()
    actor.require("authority", "participant")  # before the form is read
    new = _upload()
    store, limit = document_uploads.store(), document_uploads.max_bytes()
    key = request.headers.get("Idempotency-Key")
    idem = None
    if key is not None and 1 <= len(key) <= 200:
        digest = hashlib.sha256(
            "|".join([new.kind, new.subject_type, new.subject_id]).encode() + new.data
        ).hexdigest()
        idem = Idempotency(actor.user_id, key, digest)

    def run(uow: UnitOfWork) -> Document:
        return documents.file_document(uow, actor, store, new, limit)

    code, body = execute(engine(), run, lambda row: (201, DocumentOut().dump(row)), idem)
    return jsonify(body), code


@blp.route("/documents/<document_id>", methods=["GET"])
@blp.alt_response(200, schema=DocumentOut)
def get_document(document_id: str) -> ResponseReturnValue:
    """An exhibit's record (its party, the Authority, auditors; anyone else 404)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        return jsonify(DocumentOut().dump(documents.get_document(conn, actor, document_id)))


@blp.route("/documents/<document_id>/content", methods=["GET"])
@blp.doc(
    responses={
        "200": {
            "description": "The exhibit's bytes, as an attachment (its own media type)",
            "content": {
                media: {"schema": {"type": "string", "format": "binary"}}
                for media in media_types.ALLOWED
            },
        }
    }
)
def document_content(document_id: str) -> ResponseReturnValue:
    """An exhibit's bytes, as an attachment (the same readers as its record)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        row, data = documents.content(conn, actor, document_uploads.store(), document_id)
    name = "".join(c for c in str(row["filename"]) if c.isalnum() or c in "._-") or "document"
    return Response(
        data,
        mimetype=str(row["media_type"]),
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "X-Content-Type-Options": "nosniff",
            "ETag": f'"{row["sha256"]}"',
        },
    )


@blp.route("/fees", methods=["GET"])
@blp.arguments(FeeArgs, location="query")
@blp.alt_response(200, schema=page_of(FeeOut, "FeePage", fields.String(allow_none=True)))
def list_fees(args: dict[str, Any]) -> ResponseReturnValue:
    """What a party owes the Authority and why (a participant: its own)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        items = fees.list_fees(conn, actor, args["party_id"])
    return jsonify({"items": FeeOut(many=True).dump(items), "next": None})


@blp.route("/fees/<fee_id>/payments", methods=["POST"])
@blp.arguments(FeePaymentIn)
@blp.alt_response(201, schema=FeeOut)
def record_fee_payment(data: dict[str, Any], fee_id: str) -> ResponseReturnValue:
    """The Authority records a payment received (never more than is due)."""
    actor = current_actor()

    def run(uow: UnitOfWork) -> FeeView:
        return fees.record_payment(
            uow,
            actor,
            RecordFeePayment(
                fee_id, data["amount_cents"], data["method"], data["reference"], data["received_on"]
            ),
        )

    return command(run, FeeOut())


@blp.route("/parties/<party_id>/tax-clearances", methods=["POST"])
@blp.arguments(ClearanceIn)
@blp.alt_response(201, schema=ClearanceOut)
def record_clearance(data: dict[str, Any], party_id: str) -> ResponseReturnValue:
    """The Authority records a tax clearance certificate (ADM-11)."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> TaxClearance:
        return clearances.record_clearance(
            uow,
            actor,
            rules,
            RecordClearance(
                party_id,
                data["certificate_number"],
                data["issued_on"],
                data["program"],
                data["renews"],
            ),
        )

    return command(run, ClearanceOut())


@blp.route("/parties/<party_id>/tax-clearances", methods=["GET"])
@blp.alt_response(
    200, schema=page_of(ClearanceOut, "ClearancePage", fields.String(allow_none=True))
)
def list_clearances(party_id: str) -> ResponseReturnValue:
    """A party's tax clearance certificates (the party, the Authority, auditors)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        items = clearances.list_clearances(conn, actor, party_id)
    return jsonify({"items": ClearanceOut(many=True).dump(items), "next": None})


def _step(run: Any) -> ResponseReturnValue:
    def answer(uow: UnitOfWork) -> dict[str, Any]:
        # The step answers the application on file; the answer is its row with its case.
        return checklists.with_case(uow, dict(tech.load_application(uow, run(uow).id)))

    return command(answer, TechApplicationOut(), 200)


@blp.route("/tech/applications/<application_id>/submit", methods=["POST"])
@blp.arguments(StepIn)
@blp.alt_response(200, schema=TechApplicationOut)
def submit(data: dict[str, Any], application_id: str) -> ResponseReturnValue:
    """The seller submits its package (ADM-5), the fee paid (ADM-1), before the lock."""
    actor = current_actor()
    return _step(lambda uow: tech_steps.submit(uow, actor, application_id))


@blp.route("/tech/applications/<application_id>/preliminary-approval", methods=["POST"])
@blp.arguments(PreliminaryIn)
@blp.alt_response(200, schema=TechApplicationOut)
def preliminary(data: dict[str, Any], application_id: str) -> ResponseReturnValue:
    """The Authority's preliminary approval with its conditions (ADM-7)."""
    actor = current_actor()
    return _step(
        lambda uow: tech_steps.preliminary_approval(uow, actor, application_id, data["conditions"])
    )


@blp.route("/tech/applications/<application_id>/forward", methods=["POST"])
@blp.arguments(StepIn)
@blp.alt_response(200, schema=TechApplicationOut)
def forward(data: dict[str, Any], application_id: str) -> ResponseReturnValue:
    """The Authority forwards the application to the Division of Taxation (ADM-7)."""
    actor = current_actor()
    return _step(lambda uow: tech_steps.forward(uow, actor, application_id))


@blp.route("/tech/applications/<application_id>/tax-certificate", methods=["POST"])
@blp.arguments(TaxCertificateIn)
@blp.alt_response(200, schema=TechApplicationOut)
def tax_certificate(data: dict[str, Any], application_id: str) -> ResponseReturnValue:
    """Taxation's valuation, recorded by the Authority (ADM-8)."""
    actor = current_actor()
    return _step(
        lambda uow: tech_steps.tax_certificate(
            uow,
            actor,
            RecordTaxCertificate(
                application_id, data["benefit_cents"], data["certificate_number"], data["issued_on"]
            ),
        )
    )
