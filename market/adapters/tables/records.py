"""Existing records and report facts (projections, PRODUCT.md 9.1 and 9.2): a party's
industry and employees, and each import run by its file's SHA-256."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, CheckConstraint, Column
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class PartyFacts(SQLModel, table=True):
    """PARTY_FACTS_RECORDED: the latest NAICS code and employees by year of a party."""

    __tablename__ = "party_facts"
    __table_args__ = (
        CheckConstraint(
            "naics_code is null or length(naics_code) between 2 and 6", name="naics_length"
        ),
    )

    party_id: str = Field(primary_key=True, foreign_key="parties.id", max_length=40)
    naics_code: str | None = Field(default=None, max_length=6)
    employees: dict[str, int] = Field(sa_column=Column(JSON, nullable=False))
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class RecordsImport(SQLModel, table=True):
    """RECORDS_IMPORTED: one row per file imported; its SHA-256 is the key, so the same
    file cannot be imported twice (the database refuses a second row)."""

    __tablename__ = "records_imports"
    __table_args__ = (
        CheckConstraint("imported >= 0 and imported <= rows", name="imported_le_rows"),
    )

    sha256: str = Field(primary_key=True, max_length=64)
    import_id: str = Field(max_length=40, unique=True)
    kind: str = Field(max_length=20)
    file_name: str = Field(max_length=300)
    rows: int
    imported: int
    first_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    last_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
