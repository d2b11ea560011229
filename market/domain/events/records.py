"""Existing records coming in (PRODUCT.md 9.1) and the facts the statutory reports break
credits down by (9.2): a party's industry and employees (`party-<id>`), an import run
(`records-import-<sha256>`)."""

from __future__ import annotations

from collections.abc import Mapping

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate, omitted


@event
class PartyFactsRecorded(DomainEvent):
    """A party's NAICS 2022 code and employees by year (the latest recording stands), and
    the TECH eligibility facts (TB-1, AMB-50) when the Authority records them: each given
    one replaces the party record's, one left out (None) keeps it."""

    TYPE = "PARTY_FACTS_RECORDED"
    party_id: str
    naics_code: str | None
    employees: Mapping[str, int]
    us_employees: int | None = omitted(None)
    nj_full_time_employees: int | None = omitted(None)
    formed_on: IsoDate | None = omitted(None)


@event
class RecordsImported(DomainEvent):
    """`flask import KIND FILE.csv`: the file's SHA-256, its rows and the events it wrote
    (seqs `first_seq` to `last_seq`, before this one)."""

    TYPE = "RECORDS_IMPORTED"
    import_id: str
    kind: str
    sha256: str
    file_name: str
    rows: int
    imported: int
    first_seq: int | None
    last_seq: int | None
