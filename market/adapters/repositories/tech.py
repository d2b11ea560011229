"""TECH applications and the fiscal year's one committed allocation (TB-1..TB-15): a
party's lifetime allocations (TB-5, AMB-40), a year's applications in receipt-stamp order
and the columns its plan reads."""

from __future__ import annotations

from sqlalchemy import distinct, func, select

from market.adapters.projections.store import Row
from market.adapters.repositories.base import Repository, SqlMixin
from market.adapters.repositories.models import tech_application_of
from market.adapters.repositories.tech_models import (
    TechAllocationRow,
    TechApplicationRow,
    tech_allocation_row,
    tech_application_row,
)
from market.adapters.tables import TechApplication as TechApplicationTable
from market.domain.model import TechApplication

apps_t = TechApplicationTable.__table__  # type: ignore[attr-defined]

# What the plan and the commit read of an application (not its JSON reasons and facts);
# the first seven are `tech_plan.plan_columns`'s row.
PLAN_COLUMNS = (
    "id",
    "party_id",
    "requested_cents",
    "benefit_cents",
    "in_innovation_zone",
    "received_at",
    "received_on",
    "received_seq",
    "fiscal_year",
    "seller_tax_regime",
    "nol_cents",
    "rnd_credit_cents",
    "eligible",
)


def _by_receipt(rows: list[Row]) -> list[Row]:
    return sorted(rows, key=lambda r: int(r["received_seq"]))


class TechApplicationRepository(Repository):
    table = "tech_applications"

    def of_certificate(self, certificate_id: str) -> Row | None:
        found = self.where(certificate_id=certificate_id)
        return found[0] if found else None

    def record(self, application_id: str) -> TechApplicationRow | None:
        """The application's row, every column (what its pages show)."""
        row = self.get(application_id)
        return None if row is None else tech_application_row(row)

    def in_receipt_order(self, **columns: object) -> list[TechApplicationRow]:
        """Applications whose columns equal these values, in receipt-stamp order."""
        return [tech_application_row(r) for r in _by_receipt(self.where(**columns))]

    def applicant_parties(self) -> list[str]:
        """Every party that has filed a TECH application (the program's sellers), by id."""
        return sorted({str(r["party_id"]) for r in self.where()})

    def lifetime_approved_cents(self, party_id: str) -> int:
        """AMB-40: the approved (allocated) surrender amounts of the party's applications."""
        rows = self.where(party_id=party_id)
        return sum(int(r["allocated_cents"]) for r in rows if r["allocated_cents"] is not None)

    def lifetime_approved_by_party(self, fiscal_year: int) -> dict[str, int]:
        """`lifetime_approved_cents` of every party that allocations were made to and that
        has an application in the fiscal year."""
        parties = {r["party_id"] for r in self.where(fiscal_year=fiscal_year)}
        found: dict[str, int] = {}
        for party in sorted(parties):
            allocated = [r for r in self.where(party_id=party) if r["allocated_cents"] is not None]
            if allocated:
                found[party] = sum(int(r["allocated_cents"]) for r in allocated)
        return found

    def plan_rows(self, fiscal_year: int) -> list[TechApplication]:
        """The year's applications, eligible or not, in receipt-stamp order: PLAN_COLUMNS."""
        rows = _by_receipt(self.where(fiscal_year=fiscal_year))
        return [tech_application_of({c: r[c] for c in PLAN_COLUMNS}) for r in rows]


class TechAllocationRepository(Repository):
    """The committed allocation of a fiscal year, by the year (as text)."""

    table = "tech_allocations"

    def of_year(self, fiscal_year: int) -> TechAllocationRow | None:
        row = self.get(str(fiscal_year))
        return None if row is None else tech_allocation_row(row)


class SqlTechApplicationRepository(SqlMixin, TechApplicationRepository):
    def applicant_parties(self) -> list[str]:
        stmt = select(distinct(apps_t.c.party_id)).order_by(apps_t.c.party_id)
        return [str(party) for party in self.conn.execute(stmt).scalars()]

    def in_receipt_order(self, **columns: object) -> list[TechApplicationRow]:
        stmt = select(apps_t).order_by(apps_t.c.received_seq)
        for name, value in columns.items():
            stmt = stmt.where(apps_t.c[name] == value)
        return [tech_application_row(dict(r)) for r in self.conn.execute(stmt).mappings()]

    def lifetime_approved_cents(self, party_id: str) -> int:
        total = self.conn.execute(
            select(func.sum(apps_t.c.allocated_cents)).where(apps_t.c.party_id == party_id)
        ).scalar()
        return int(total or 0)

    def lifetime_approved_by_party(self, fiscal_year: int) -> dict[str, int]:
        applicants = select(apps_t.c.party_id).where(apps_t.c.fiscal_year == fiscal_year)
        rows = self.conn.execute(
            select(apps_t.c.party_id, func.sum(apps_t.c.allocated_cents))
            .where(apps_t.c.party_id.in_(applicants), apps_t.c.allocated_cents.is_not(None))
            .group_by(apps_t.c.party_id)
        ).all()
        return {party: int(total or 0) for party, total in rows}

    def plan_rows(self, fiscal_year: int) -> list[TechApplication]:
        # Plain tuples zipped with the names: the preview plans 10,000 rows a request.
        found = self.conn.execute(
            select(*(apps_t.c[name] for name in PLAN_COLUMNS))
            .where(apps_t.c.fiscal_year == fiscal_year)
            .order_by(apps_t.c.received_seq)
        )
        return [tech_application_of(dict(zip(PLAN_COLUMNS, r, strict=True))) for r in found]
