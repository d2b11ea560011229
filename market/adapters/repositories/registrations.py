"""Registrations (issue 29 item 1): a business's request to join, by id and by tax id,
as the aggregate the rules decide on and as the record the pages and the API show."""

from __future__ import annotations

from typing import Any, TypedDict

from market.adapters.projections.store import Row
from market.adapters.repositories.base import Repository
from market.domain.model.registration import Registration, RegistrationStatus


class RegistrationRecord(TypedDict):
    """A `registrations` row, every column."""

    id: str
    legal_name: str
    tax_id: str
    nj_tax_registration: str
    entity_type: str
    tax_types: list[str]
    contact_email: str
    officers: list[dict[str, Any]]
    affiliates: list[dict[str, Any]]
    status: str
    reason: str | None
    party_id: str | None
    user_id: str | None
    requested_at: str
    requested_seq: int
    decided_seq: int | None


def registration_record(row: Row) -> RegistrationRecord:
    return RegistrationRecord(
        id=row["id"],
        legal_name=row["legal_name"],
        tax_id=row["tax_id"],
        nj_tax_registration=row["nj_tax_registration"],
        entity_type=row["entity_type"],
        tax_types=list(row["tax_types"]),
        contact_email=row["contact_email"],
        officers=[dict(o) for o in row["officers"]],
        affiliates=[dict(a) for a in row["affiliates"]],
        status=row["status"],
        reason=row["reason"],
        party_id=row["party_id"],
        user_id=row["user_id"],
        requested_at=row["requested_at"],
        requested_seq=row["requested_seq"],
        decided_seq=row["decided_seq"],
    )


def registration_of(row: Row) -> Registration:
    return Registration(
        id=str(row["id"]),
        legal_name=str(row["legal_name"]),
        tax_id=str(row["tax_id"]),
        nj_tax_registration=str(row["nj_tax_registration"]),
        entity_type=str(row["entity_type"]),
        tax_types=tuple(row["tax_types"]),
        contact_email=str(row["contact_email"]),
        officers=tuple(row["officers"]),
        affiliates=tuple(row["affiliates"]),
        status=RegistrationStatus(row["status"]),
        reason=row["reason"],
        party_id=row["party_id"],
        user_id=row["user_id"],
        requested_at=str(row["requested_at"]),
    )


class RegistrationRepository(Repository):
    table = "registrations"

    def load(self, registration_id: str) -> Registration | None:
        row = self.get(registration_id)
        return None if row is None else registration_of(row)

    def record(self, registration_id: str) -> RegistrationRecord | None:
        row = self.get(registration_id)
        return None if row is None else registration_record(row)

    def open_with_tax_id(self, tax_id: str) -> Registration | None:
        """A request for this tax id still waiting for its e-mail check or a decision."""
        for registration in map(registration_of, self.where(tax_id=tax_id)):
            if registration.is_open:
                return registration
        return None
