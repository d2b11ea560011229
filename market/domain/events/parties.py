"""Parties, their ownership and the filings on a party's stream (`party-<id>`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate


@event
class PartyRegistered(DomainEvent):
    TYPE = "PARTY_REGISTERED"
    party_id: str
    name: str
    tax_id: str
    entity_type: str
    tax_types: Sequence[str]
    in_innovation_zone: bool
    us_employees: int | None
    nj_full_time_employees: int | None
    formed_on: str | None
    operating_income_cents_by_year: Mapping[str, int]


@event
class OwnershipRecorded(DomainEvent):
    TYPE = "OWNERSHIP_RECORDED"
    party_id: str  # the owned party
    owner_party_id: str
    voting_bps: int
    value_bps: int
    income_share_bps: int | None


@event
class OwnersAgreementFiled(DomainEvent):
    """UTH-14 / AMB-17: a partnership's owners' agreement; `shares` are
    {owner_party_id, share_bps}."""

    TYPE = "OWNERS_AGREEMENT_FILED"
    party_id: str
    agreement_id: str
    shares: Sequence[Mapping[str, Any]]
    filed_on: str
    reference: str | None
    replaces_agreement_id: str | None


@event
class DirectorExceptionRecorded(DomainEvent):
    """PT-7 / AMB-53: the Director's exception for an individual buying directly."""

    TYPE = "DIRECTOR_EXCEPTION_RECORDED"
    party_id: str
    reason: str
    recorded_on: IsoDate
