"""The answers of the registration and account routes, for the API document (the views
build them as dicts; these describe them, as schemas.page_of does for pages)."""

from __future__ import annotations

from marshmallow import Schema, fields

from market.api.schemas import page_of

_TEXT = fields.String


class RegistrationStatusOut(Schema):
    id = _TEXT()
    status = _TEXT(metadata={"description": "email_unverified | submitted | approved | rejected"})


class RegistrationOut(Schema):
    """The applicant (with its link) sees id, legal_name, status, reason, requested_at and
    party_id; the Authority and auditors see every field."""

    id = _TEXT()
    legal_name = _TEXT()
    status = _TEXT()
    reason = _TEXT(allow_none=True)
    requested_at = _TEXT()
    party_id = _TEXT(allow_none=True)
    tax_id = _TEXT()
    nj_tax_registration = _TEXT()
    entity_type = _TEXT()
    tax_types = fields.List(_TEXT())
    contact_email = _TEXT()
    officers = fields.List(fields.Dict())
    affiliates = fields.List(fields.Dict())
    user_id = _TEXT(allow_none=True)
    requested_seq = fields.Integer()
    decided_seq = fields.Integer(allow_none=True)


class SimilarOut(Schema):
    parties = fields.List(fields.Dict(), metadata={"description": "with `why`"})
    registrations = fields.List(fields.Dict(), metadata={"description": "with `why`"})


class RegistrationReviewOut(RegistrationOut):
    similar = fields.Nested(SimilarOut, metadata={"description": "the Authority's read only"})


RegistrationPage = page_of(RegistrationOut, "RegistrationPage")


class InvitedUserOut(Schema):
    id = _TEXT()
    email = _TEXT()
    party_id = _TEXT()
    role = _TEXT(metadata={"description": "owner | preparer | viewer"})


class PartyUserOut(Schema):
    id = _TEXT()
    email = _TEXT()
    role = _TEXT()
    active = fields.Boolean()
    mfa_enrolled = fields.Boolean()
    invite_open = fields.Boolean()
    created_at = _TEXT()


PartyUserPage = page_of(PartyUserOut, "PartyUserPage")


class DeactivatedOut(Schema):
    id = _TEXT()
    active = fields.Boolean()
    tokens_revoked = fields.Integer()
    sessions_ended = fields.Integer()


class MfaResetOut(Schema):
    id = _TEXT()
    mfa_enrolled = fields.Boolean()
    credential_removed = fields.Boolean()
