"""Marshmallow schemas that both the JSON API and the pages validate with, so a form cannot
accept what the API refuses (a zero, a share over 100%, an unknown entity type). A layer of
its own between the API and pages above and the services below (pyproject's contracts):
it imports only the services' and the domain's vocabularies. Amounts are refused in
dollars, so a page can show the schema's message beside its dollar field as it is."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from market.domain.rules import proceeds
from market.domain.values import format_cents
from market.services.actor import ROLES
from market.services.funding import MAX_REFERENCE
from market.services.parties import ENTITY_TYPES, TAX_TYPES

MAX_BPS = 10_000
MAX_CENTS = 10**14  # $1 trillion: far above any certificate, well inside 64-bit integers


def cents(required: bool = True, minimum: int = 0) -> fields.Integer:
    """An amount in integer cents, from `minimum` to MAX_CENTS."""
    low = "more than $0.00" if minimum == 1 else f"at least {format_cents(minimum)}"
    return fields.Integer(
        strict=True,
        required=required,
        validate=validate.Range(
            min=minimum,
            max=MAX_CENTS,
            error=f"Must be {low} and at most {format_cents(MAX_CENTS)}.",
        ),
    )


def bps(required: bool = True) -> fields.Integer:
    return fields.Integer(strict=True, required=required, validate=validate.Range(0, MAX_BPS))


def text(max_len: int, required: bool = True) -> fields.String:
    return fields.String(required=required, validate=validate.Length(min=1, max=max_len))


class PartyFields(Schema):
    """Who a party is; the API's PartyIn adds the TECH eligibility facts."""

    name = text(200)
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


class ListingIn(Schema):
    certificate_id = text(40)
    amount_cents = cents(minimum=1)
    ask_cents = cents()


class OfferIn(Schema):
    amount_cents = cents(minimum=1)
    price_cents = cents()


# BR-14 / TB-25: the seller's attested uses of the proceeds, from the statute's list.
USE_OF_PROCEEDS = fields.List(
    fields.String(validate=validate.OneOf(list(proceeds.USES))),
    load_default=None,
    validate=validate.Length(max=len(proceeds.USES)),
    metadata={"description": "BR-14/TB-25: what the proceeds fund (BRRAG, TECH)"},
)


class TransferIn(Schema):
    certificate_id = text(40)
    buyer_party_id = text(40)
    amount_cents = cents(minimum=1)
    consideration_cents = cents()
    agreement_ref = text(200, required=False)
    use_of_proceeds = USE_OF_PROCEEDS


class AcceptIn(Schema):
    use_of_proceeds = USE_OF_PROCEEDS


class PaymentIn(Schema):
    """The buyer's payment of a transfer's consideration (PRODUCT.md 8.3)."""

    reference = text(MAX_REFERENCE)
    amount_cents = cents(minimum=1)
    paid_on = fields.Date(required=True)
