"""What the case file takes and answers (PRODUCT.md 9.1): a checklist item, a TECH case file, an
exhibit, a fee, a tax clearance certificate."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from market.services.casefiles import clearances, fees


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


# What the case file takes.
_TEXT = validate.Length(min=1, max=200)


class FeePaymentIn(Schema):
    amount_cents = fields.Integer(required=True, strict=True)
    method = fields.String(required=True, validate=validate.OneOf(fees.METHODS))
    reference = fields.String(required=True, validate=_TEXT)
    received_on = fields.Date(required=True)


class FeeArgs(Schema):
    party_id = fields.String(load_default=None, validate=validate.Length(max=40))


class ClearanceIn(Schema):
    certificate_number = fields.String(required=True, validate=validate.Length(min=1, max=100))
    issued_on = fields.Date(required=True)
    program = fields.String(required=True, validate=validate.OneOf(clearances.PROGRAMS))
    renews = fields.String(load_default=None, validate=validate.Length(max=40))


class PreliminaryIn(Schema):
    conditions = fields.List(
        fields.String(validate=validate.Length(max=500)),
        load_default=list,
        validate=validate.Length(max=50),
    )


class TaxCertificateIn(Schema):
    benefit_cents = fields.Integer(required=True, strict=True)
    certificate_number = fields.String(required=True, validate=validate.Length(min=1, max=100))
    issued_on = fields.Date(required=True)


class StepIn(Schema):
    pass
