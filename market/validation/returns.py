"""Returns: a credit applied to a tax return (with PT-2's section 40 figures), a
pass-through to the owners and the Authority's recapture (the holder's desk and the
Authority's desk forms load these, as the API does)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from market.validation.fields import cents, text

_TAX = validate.OneOf(("CBT", "GIT", "IPT"))


class Section40In(Schema):
    """PT-2: the figures the §40 liability-share ratio needs (cents)."""

    entity_income_cents = fields.Integer(strict=True, required=True)
    category_amounts_cents = fields.List(
        fields.Integer(strict=True), required=True, validate=validate.Length(min=1, max=100)
    )
    other_categories_net_cents = fields.List(
        fields.Integer(strict=True), load_default=list, validate=validate.Length(max=100)
    )


class CreditApplicationIn(Schema):
    certificate_id = text(40)
    tax_type = fields.String(required=True, validate=_TAX)
    tax_year = fields.Integer(strict=True, required=True, validate=validate.Range(1990, 2200))
    liability_cents = cents()
    other_credits_cents = cents(required=False)
    statutory_minimum_cents = cents(required=False)
    amount_cents = cents(minimum=1)
    cap40_cents = cents(required=False)
    section_40 = fields.Nested(Section40In, load_default=None)


class PassThroughIn(Schema):
    amount_cents = cents(required=False, minimum=1)


class RecaptureIn(Schema):
    party_id = text(40)
    certificate_id = text(40, required=False)
    amount_cents = cents(minimum=1)
    reason = text(500)
    tax_type = fields.String(validate=_TAX)
    program = fields.String(validate=validate.OneOf(("BRRAG", "UTH", "DM_GIT", "DM_CBT", "TECH")))
    transfer_id = text(40, required=False)
    basis = fields.String(
        load_default="other",
        validate=validate.OneOf(("hq_not_maintained", "proceeds_misused", "other")),
    )
    occurred_on = fields.Date(load_default=None)
    liquidation = fields.Boolean(load_default=False)
