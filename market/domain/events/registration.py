"""A business asking to join (issue 29 item 1), on the stream `registration-<id>`: asked,
its e-mail verified, then approved (the party is registered by PARTY_REGISTERED in the
same unit of work, and its first user named here) or rejected with the reason the
business is shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from market.domain.events.base import DomainEvent, event


@event
class RegistrationRequested(DomainEvent):
    TYPE = "REGISTRATION_REQUESTED"
    registration_id: str
    legal_name: str
    tax_id: str
    nj_tax_registration: str
    entity_type: str
    tax_types: Sequence[str]
    contact_email: str
    officers: Sequence[Mapping[str, str]]
    affiliates: Sequence[Mapping[str, str | None]]
    requested_at: str


@event
class RegistrationEmailVerified(DomainEvent):
    TYPE = "REGISTRATION_EMAIL_VERIFIED"
    registration_id: str


@event
class RegistrationApproved(DomainEvent):
    TYPE = "REGISTRATION_APPROVED"
    registration_id: str
    party_id: str
    user_id: str
    email: str


@event
class RegistrationRejected(DomainEvent):
    TYPE = "REGISTRATION_REJECTED"
    registration_id: str
    reason: str
