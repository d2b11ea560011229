"""The records commands: a party's facts the statutory reports and TB-1 read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class HeadcountFacts:
    """The party record's TECH eligibility facts (TB-1), read again at the exchange
    (AMB-50); None keeps the recorded value."""

    us_employees: int | None = None
    nj_full_time_employees: int | None = None
    formed_on: date | None = None


@dataclass(frozen=True)
class RecordPartyFacts:
    """The party's NAICS code and employees by year (PRODUCT.md 9.2), and its TB-1 facts
    if given; a field left out (None) keeps what was recorded before."""

    party_id: str
    naics_code: str | None
    employees: Mapping[str, int] | None
    tech: HeadcountFacts | None = None
