"""A TECH benefit transfer application (N.J.A.C. 19:31K-1.4, 1.5; TB-1..TB-15): the
surrender a seller asks for in a fiscal year, its place in receipt order, its eligibility
and, once the year's allocation runs, what it was allocated."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from market.domain.values import floor_int


@dataclass(frozen=True)
class TechApplication:
    id: str
    party_id: str
    fiscal_year: int
    requested_cents: int
    benefit_cents: int
    nol_cents: int
    rnd_credit_cents: int
    seller_tax_regime: str
    in_innovation_zone: bool
    received_on: str  # ISO date (TB-6)
    received_at: str | None  # the receipt instant, New York offset (None before 0010)
    received_seq: int
    eligible: bool
    allocated_cents: int | None = None
    certificate_id: str | None = None

    @staticmethod
    def stream_of(application_id: str) -> str:
        return f"tech-{application_id}"

    @property
    def stream(self) -> str:
        return self.stream_of(self.id)

    def plan_row(self) -> tuple[str, str, int, int, bool, str | None, str]:
        """What `tech_plan.plan_columns` reads of it, in its order."""
        return (
            self.id,
            self.party_id,
            self.requested_cents,
            self.benefit_cents,
            self.in_innovation_zone,
            self.received_at,
            self.received_on,
        )

    def benefit_split(self, allocated_cents: int) -> dict[str, int]:
        """The allocated amount split between its NOL-derived and R&D parts, pro rata."""
        benefit = self.benefit_cents
        nol = benefit - self.rnd_credit_cents
        nol_share = floor_int(Fraction(allocated_cents * nol, benefit)) if benefit else 0
        return {"nol_derived_cents": nol_share, "rnd_credit_cents": allocated_cents - nol_share}
