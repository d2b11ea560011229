"""The parties projections' rows as typed records (a party, an ownership stake, the owners'
agreement in force): what the pages and the API answer show column for column. The rules
read the frozen `Party` instead (`models.party_of`).

Each is the row itself (a dict at run time, so a JSON answer is unchanged), its columns
named and typed here, the one place they are (adapters/tables/parties.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast


class PartyRow(TypedDict):
    id: str
    name: str
    tax_id: str
    entity_type: str
    tax_types: list[str]
    in_innovation_zone: bool
    us_employees: int | None
    nj_full_time_employees: int | None
    formed_on: str | None
    operating_income_cents_by_year: dict[str, int]
    created_seq: int
    director_exception: str | None


class StakeRow(TypedDict):
    """An owner's recorded stake in a party (TB-20), in basis points."""

    id: str
    owned_party_id: str
    owner_party_id: str
    voting_bps: int
    value_bps: int
    income_share_bps: int | None


class OwnerStake(TypedDict):
    """A party's owner as its page lists it."""

    owner_party_id: str
    voting_bps: int
    value_bps: int
    income_share_bps: int | None


class AgreementShare(TypedDict):
    owner_party_id: str
    share_bps: int


class OwnersAgreementRow(TypedDict):
    """The owners' agreement in force for a partnership (UTH-14, AMB-17)."""

    party_id: str
    agreement_id: str
    shares: list[AgreementShare]
    filed_on: str
    reference: str | None
    recorded_seq: int


class ExceptedParty(TypedDict):
    """A party the Director has excepted (PT-7, AMB-53)."""

    id: str
    name: str
    director_exception: str


def party_row(row: Mapping[str, Any]) -> PartyRow:
    return cast(PartyRow, row)


def stake_row(row: Mapping[str, Any]) -> StakeRow:
    return cast(StakeRow, row)


def owners_agreement_row(row: Mapping[str, Any]) -> OwnersAgreementRow:
    return cast(OwnersAgreementRow, row)
