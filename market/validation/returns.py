"""Returns: a credit applied to a tax return (with PT-2's section 40 figures) and a
pass-through to the owners (the holder's desk forms load these, as the API does)."""

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
