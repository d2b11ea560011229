"""The rules of a registration, each a use case over a unit of work: ask, verify the
e-mail, approve (registering the party through parties.register_party, so the same
checks and PARTY_REGISTERED), reject with a reason. A tax id already registered to a
party, or asked for by a registration still open, is refused with `tax_id_registered`."""

from __future__ import annotations

from dataclasses import dataclass, field

from market.adapters.repositories.registrations import (
    RegistrationRecord,
    RegistrationRepository,
)
from market.domain.errors import InvalidRequestError
from market.domain.events.registration import (
    RegistrationApproved,
    RegistrationEmailVerified,
    RegistrationRejected,
    RegistrationRequested,
)
from market.domain.model.registration import Registration, RegistrationStatus
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.errors import ConflictError, not_found
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import ENTITY_TYPES, TAX_TYPES, NewParty, register_party

PUBLIC_LABEL = "public:registration"


class TaxIdRegisteredError(ConflictError):
    code = "tax_id_registered"


class RegistrationStateError(ConflictError):
    code = "registration_not_pending"


@dataclass(frozen=True)
class NewRegistration:
    legal_name: str
    tax_id: str
    nj_tax_registration: str
    entity_type: str
    tax_types: list[str]
    contact_email: str
    officers: list[dict[str, str]] = field(default_factory=list)
    affiliates: list[dict[str, str | None]] = field(default_factory=list)


def check(new: NewRegistration) -> None:
    """What the schema cannot say: values among the known ones, an officer at least."""
    if new.entity_type not in ENTITY_TYPES:
        raise InvalidRequestError(
            f"Unknown entity type {new.entity_type!r}.", {"field": "entity_type"}
        )
    if not new.tax_types or not set(new.tax_types) <= set(TAX_TYPES):
        raise InvalidRequestError(
            "Tax types must be among CBT, GIT and IPT.", {"field": "tax_types"}
        )
    if not new.officers:
        raise InvalidRequestError("Name at least one officer.", {"field": "officers"})


def refuse_taken_tax_id(uow: UnitOfWork, tax_id: str, but: str | None = None) -> None:
    if uow.parties.by_tax_id(tax_id) is not None:
        raise TaxIdRegisteredError(
            f"Tax id {tax_id} is already registered to a party.", {"field": "tax_id"}
        )
    pending = RegistrationRepository(uow.store).open_with_tax_id(tax_id)
    if pending is not None and pending.id != but:
        raise TaxIdRegisteredError(
            f"A registration for tax id {tax_id} is already waiting.", {"field": "tax_id"}
        )


def request(
    uow: UnitOfWork, new: NewRegistration, registration_id: str, now: str
) -> RegistrationRecord:
    check(new)
    refuse_taken_tax_id(uow, new.tax_id)
    asked = RegistrationRequested(
        registration_id=registration_id,
        legal_name=new.legal_name,
        tax_id=new.tax_id,
        nj_tax_registration=new.nj_tax_registration,
        entity_type=new.entity_type,
        tax_types=sorted(set(new.tax_types)),
        contact_email=new.contact_email,
        officers=new.officers,
        affiliates=new.affiliates,
        requested_at=now,
    )
    uow.append(Registration.stream_of(registration_id), asked, PUBLIC_LABEL, new_stream=True)
    return load(uow, registration_id)


def load(uow: UnitOfWork, registration_id: str) -> RegistrationRecord:
    """The registration as the pages and the API show it, or 404."""
    record = RegistrationRepository(uow.store).record(registration_id)
    if record is None:
        raise not_found("Registration", "registration_id", registration_id)
    return record


def _pending(uow: UnitOfWork, registration_id: str, status: RegistrationStatus) -> Registration:
    registration = RegistrationRepository(uow.store).load(registration_id)
    if registration is None:
        raise not_found("Registration", "registration_id", registration_id)
    if registration.status is not status:
        raise RegistrationStateError(
            f"This registration is {registration.status.value}, not {status.value}.",
            {"status": registration.status.value},
        )
    return registration


def verify_email(uow: UnitOfWork, registration_id: str) -> RegistrationRecord:
    registration = _pending(uow, registration_id, RegistrationStatus.EMAIL_UNVERIFIED)
    uow.append(
        registration.stream,
        RegistrationEmailVerified(registration_id=registration_id),
        PUBLIC_LABEL,
    )
    return load(uow, registration_id)


def approve(
    uow: UnitOfWork, actor: Actor, registration_id: str, user_id: str
) -> RegistrationRecord:
    """The party (PARTY_REGISTERED, by the parties rules) and the approval naming its
    first user (`user_id`, the applicant's account, activated after commit)."""
    actor.require(AUTHORITY)
    registration = _pending(uow, registration_id, RegistrationStatus.SUBMITTED)
    refuse_taken_tax_id(uow, registration.tax_id, but=registration_id)
    party = register_party(
        uow,
        actor,
        NewParty(
            name=registration.legal_name,
            tax_id=registration.tax_id,
            entity_type=registration.entity_type,
            tax_types=list(registration.tax_types),
        ),
    )
    approved = RegistrationApproved(
        registration_id=registration_id,
        party_id=party["id"],
        user_id=user_id,
        email=registration.contact_email,
    )
    uow.append(registration.stream, approved, actor.label)
    return load(uow, registration_id)


def reject(uow: UnitOfWork, actor: Actor, registration_id: str, reason: str) -> RegistrationRecord:
    actor.require(AUTHORITY)
    if not reason.strip():
        raise InvalidRequestError("Say why: the business is shown the reason.", {"field": "reason"})
    registration = _pending(uow, registration_id, RegistrationStatus.SUBMITTED)
    rejected = RegistrationRejected(registration_id=registration_id, reason=reason.strip())
    uow.append(registration.stream, rejected, actor.label)
    return load(uow, registration_id)
