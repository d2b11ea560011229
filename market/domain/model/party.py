"""A business or individual in the market (PRODUCT.md 8.1), with the facts the rules read:
its taxes (§2.7), its entity type (PT-7), and a TECH seller's size and age (TB-1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from market.domain.rules.tech_eligibility import TechFacts


@dataclass(frozen=True)
class Party:
    id: str
    name: str
    entity_type: str
    tax_types: frozenset[str]
    director_exception: str | None = None
    us_employees: int | None = None
    nj_full_time_employees: int | None = None
    formed_on: date | None = None
    operating_income_cents_by_year: Mapping[int, int] = field(default_factory=dict)

    def missing_tech_facts(self) -> list[str]:
        """TB-1, AMB-50: the facts a TECH seller's eligibility at exchange needs and lacks."""
        facts = {
            "us_employees": self.us_employees,
            "nj_full_time_employees": self.nj_full_time_employees,
            "formed_on": self.formed_on,
        }
        return [name for name, value in facts.items() if value is None]

    def tech_facts(self, filed_on: date) -> TechFacts | None:
        """The facts TB-1's tests read, or None while any is not on record."""
        if self.us_employees is None or self.nj_full_time_employees is None:
            return None
        if self.formed_on is None:
            return None
        return TechFacts(
            us_employees=self.us_employees,
            nj_full_time_employees=self.nj_full_time_employees,
            formed_on=self.formed_on,
            filed_on=filed_on,
            operating_income_cents_by_year=dict(self.operating_income_cents_by_year),
        )
