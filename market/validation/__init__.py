"""Marshmallow schemas that both the JSON API and the pages validate with, so a form cannot
accept what the API refuses (a zero, a share over 100%, an unknown entity type). A layer of
its own between the API and pages above and the services below (pyproject's contracts):
it imports only the services' and the domain's vocabularies. One module per area; every
schema is importable from here."""

from __future__ import annotations

from market.validation.fields import MAX_BPS, MAX_CENTS, bps, cents, text
from market.validation.parties import (
    AgreementShareIn,
    NewUserIn,
    OwnerIn,
    OwnersAgreementIn,
    PartyFields,
    PasswordResetIn,
)
from market.validation.records import PartyFactsIn, employees_field, naics_field
from market.validation.registration import RegistrationIn
from market.validation.returns import (
    CreditApplicationIn,
    PassThroughIn,
    RecaptureIn,
    Section40In,
)
from market.validation.tech import EntityFacts, TechApplicationIn
from market.validation.trading import (
    USE_OF_PROCEEDS,
    AcceptIn,
    ApproveIn,
    CounterIn,
    DeclineIn,
    ListingIn,
    OfferIn,
    PaymentIn,
    RejectIn,
    TransferIn,
)

__all__ = [
    "MAX_BPS",
    "MAX_CENTS",
    "USE_OF_PROCEEDS",
    "AcceptIn",
    "AgreementShareIn",
    "ApproveIn",
    "CounterIn",
    "CreditApplicationIn",
    "DeclineIn",
    "EntityFacts",
    "ListingIn",
    "NewUserIn",
    "OfferIn",
    "OwnerIn",
    "OwnersAgreementIn",
    "PartyFactsIn",
    "PartyFields",
    "PassThroughIn",
    "PasswordResetIn",
    "PaymentIn",
    "RecaptureIn",
    "RegistrationIn",
    "RejectIn",
    "Section40In",
    "TechApplicationIn",
    "TransferIn",
    "bps",
    "cents",
    "employees_field",
    "naics_field",
    "text",
]
