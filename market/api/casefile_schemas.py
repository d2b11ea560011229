"""Answers of the case file (PRODUCT.md 9.1): a checklist item, a TECH case file, an
exhibit, a fee, a tax clearance certificate."""

from __future__ import annotations

from marshmallow import Schema, fields


class ChecklistItemOut(Schema):
    kind = fields.String()
    stage = fields.String(metadata={"description": "submission | preliminary | final"})
    required = fields.Boolean()
    satisfied = fields.Boolean()
    document_ids = fields.List(fields.String())


class CaseFileOut(Schema):
    submitted_on = fields.String()
    preliminary_on = fields.String(allow_none=True)
    conditions = fields.List(fields.String(), allow_none=True)
    forwarded_on = fields.String(allow_none=True)
    tax_certificate_number = fields.String(allow_none=True)
    valued_benefit_cents = fields.Integer(allow_none=True)
    tax_certificate_issued_on = fields.String(allow_none=True)


class DocumentOut(Schema):
    id = fields.String()
    kind = fields.String()
    subject_type = fields.String()
    subject_id = fields.String()
    sha256 = fields.String()
    bytes = fields.Integer()
    media_type = fields.String()
    filename = fields.String()
    version = fields.Integer()
    filed_by = fields.String()
    filed_at = fields.String()


class FeeOut(Schema):
    id = fields.String()
    party_id = fields.String()
    kind = fields.String()
    program = fields.String()
    subject_id = fields.String()
    amount_cents = fields.Integer()
    credited_cents = fields.Integer()
    paid_cents = fields.Integer()
    due_cents = fields.Integer()
    status = fields.String(metadata={"description": "unpaid | partly_paid | paid"})
    reason = fields.String()
    invoiced_on = fields.String()


class ClearanceOut(Schema):
    id = fields.String()
    party_id = fields.String()
    program = fields.String()
    certificate_number = fields.String()
    issued_on = fields.String()
    renews = fields.String(allow_none=True)
    valid_until = fields.String()
    renewals_left = fields.Integer()
