"""TECH: the facts about a business the eligibility tests read (kept on the party too) and
a surrender application (the seller's desk form loads it, as the API does)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from market.services.tech import tech
from market.validation.fields import MAX_CENTS, cents, text

_YEAR = validate.Range(1990, 2200)


class EntityFacts(Schema):
    """The facts about a business that the TECH eligibility tests read (TB-1, TB-4): kept on
    the party and, where an application gives them, on the application."""

    us_employees = fields.Integer(strict=True, load_default=None, validate=validate.Range(0, 10**7))
    nj_full_time_employees = fields.Integer(
        strict=True, load_default=None, validate=validate.Range(0, 10**7)
    )
    formed_on = fields.Date(load_default=None)
    operating_income_cents_by_year = fields.Dict(
        keys=fields.String(validate=validate.Regexp(r"^(19|20)\d\d$")),
        values=fields.Integer(strict=True, validate=validate.Range(-MAX_CENTS, MAX_CENTS)),
        load_default=None,
        validate=validate.Length(max=50),
    )


class TechApplicationIn(EntityFacts):
    party_id = text(40)
    # TB-6: stamped by the service; the Authority alone may record a paper filing's receipt
    # (a date, or a date-time in New York time unless it carries an offset) with its reason.
    received_on = fields.String(
        load_default=None,
        validate=validate.Regexp(
            r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$"
        ),
        metadata={"description": "authority only: a paper filing's receipt (TB-6)"},
    )
    receipt_reason = text(500, required=False)
    nol_cents = cents()
    allocation_factor = fields.String(
        required=True, validate=validate.Regexp(r"^\s*(\d+(\.\d+)?|\.\d+|\d+/\d+)\s*$")
    )
    seller_tax_regime = fields.String(required=True, validate=validate.OneOf(tech.REGIMES))
    rnd_credit_cents = cents()
    in_innovation_zone = fields.Boolean(load_default=None)
    tax_year = fields.Integer(strict=True, load_default=None, validate=_YEAR)
    fiscal_year = fields.Integer(strict=True, load_default=None, validate=_YEAR)
    requested_cents = cents(required=False, minimum=1)
    parent_positive_noi = fields.Boolean(load_default=False)
    consolidated_group_positive_noi = fields.Boolean(load_default=False)
    hq_in_nj = fields.Boolean(load_default=True)
    has_protected_ip = fields.Boolean(load_default=True)
