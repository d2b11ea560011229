"""The parties commands: the Authority records who owns whom (TB-20)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RecordOwnership:
    """`owner_party_id` holds these basis points of `party_id`'s votes and value (and,
    for a partnership, of its income)."""

    party_id: str
    owner_party_id: str
    voting_bps: int
    value_bps: int
    income_share_bps: int | None = None
