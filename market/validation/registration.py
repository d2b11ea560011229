"""A business asking to join (PRODUCT.md 9.1): the API and the public "Ask to join" page
load this one schema."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from market.services.parties.parties import ENTITY_TYPES, TAX_TYPES
from market.validation.fields import text
from market.validation.names import display_name


class OfficerIn(Schema):
    name = display_name(200)
    title = text(100)


class AffiliateIn(Schema):
    name = display_name(200)
    tax_id = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    relationship = text(100)


class RegistrationIn(Schema):
    # The party's name once approved: held to the party-name rule (no invisible characters).
    legal_name = display_name(200)
    tax_id = fields.String(
        required=True,
        validate=validate.Regexp(
            r"^\d{2}-?\d{7}$", error="A federal tax id is 9 digits, as 12-3456789."
        ),
    )
    nj_tax_registration = text(40)
    entity_type = fields.String(required=True, validate=validate.OneOf(ENTITY_TYPES))
    tax_types = fields.List(
        fields.String(validate=validate.OneOf(TAX_TYPES)),
        required=True,
        validate=validate.Length(min=1, max=3),
    )
    contact_email = fields.Email(required=True, validate=validate.Length(max=254))
    officers = fields.List(
        fields.Nested(OfficerIn), required=True, validate=validate.Length(min=1, max=20)
    )
    affiliates = fields.List(
        fields.Nested(AffiliateIn), load_default=list, validate=validate.Length(max=50)
    )
