"""Parties and users: who a party is, who owns it, its owners' agreement, and the users the
Authority creates (the pages' party and user forms load these, as the API does)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from market.services.kernel.actor import ROLES
from market.services.parties.parties import ENTITY_TYPES, TAX_TYPES
from market.validation.fields import MAX_BPS, bps, text
from market.validation.names import display_name


class PartyFields(Schema):
    """Who a party is; the API's PartyIn adds the TECH eligibility facts."""

    name = display_name(200)
    tax_id = text(40)
    entity_type = fields.String(required=True, validate=validate.OneOf(ENTITY_TYPES))
    tax_types = fields.List(
        fields.String(validate=validate.OneOf(TAX_TYPES)),
        required=True,
        validate=validate.Length(max=3),
    )
    in_innovation_zone = fields.Boolean(load_default=False)


class OwnerIn(Schema):
    owner_party_id = text(40)
    voting_bps = bps()
    value_bps = bps()
    income_share_bps = fields.Integer(
        strict=True, load_default=None, validate=validate.Range(0, MAX_BPS)
    )


class AgreementShareIn(Schema):
    owner_party_id = text(40)
    share_bps = fields.Integer(strict=True, required=True)


class OwnersAgreementIn(Schema):
    shares = fields.List(
        fields.Nested(AgreementShareIn), required=True, validate=validate.Length(min=1, max=500)
    )
    filed_on = fields.Date(required=True)
    reference = text(200, required=False)


class NewUserIn(Schema):
    """A user the Authority creates: the same bounds identity.create_user enforces."""

    email = fields.Email(required=True, validate=validate.Length(max=254))
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    party_id = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    password = fields.String(required=True, validate=validate.Length(min=8, max=200))


class PasswordResetIn(Schema):
    user_id = text(40)
    password = fields.String(required=True, validate=validate.Length(min=8, max=200))


class ExceptionIn(Schema):
    """The Director's exception for an individual's direct GIT purchase (PT-7, AMB-53)."""

    reason = text(500)
