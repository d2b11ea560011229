"""A business's request to join the market (issue 29 item 1): what it asked for, and
where the request stands (its e-mail checked, then the Authority's decision)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class RegistrationStatus(StrEnum):
    EMAIL_UNVERIFIED = "email_unverified"
    SUBMITTED = "submitted"
    APPROVED = "approved"
    REJECTED = "rejected"


OPEN_STATUSES = (RegistrationStatus.EMAIL_UNVERIFIED, RegistrationStatus.SUBMITTED)


@dataclass(frozen=True)
class Registration:
    id: str
    legal_name: str
    tax_id: str
    nj_tax_registration: str
    entity_type: str
    tax_types: tuple[str, ...]
    contact_email: str
    officers: tuple[Mapping[str, Any], ...]
    affiliates: tuple[Mapping[str, Any], ...]
    status: RegistrationStatus
    reason: str | None
    party_id: str | None
    user_id: str | None
    requested_at: str

    @staticmethod
    def stream_of(registration_id: str) -> str:
        return f"registration-{registration_id}"

    @property
    def stream(self) -> str:
        return self.stream_of(self.id)

    @property
    def is_open(self) -> bool:
        """Still waiting for its e-mail check or for a decision."""
        return self.status in OPEN_STATUSES
