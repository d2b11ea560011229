"""Credit applications on returns (CMN-8, PT-1): what a party already applied in a tax
year, and its earlier uses with the certificates they used (the duplicate-use check);
recaptures assessed."""

from __future__ import annotations

from sqlalchemy import bindparam, func, select

from market.adapters.projections.store import Row
from market.adapters.queries import Query
from market.adapters.repositories.base import Repository, SqlMixin
from market.adapters.tables import Certificate, CreditApplication

certs_t = Certificate.__table__  # type: ignore[attr-defined]
apps_t = CreditApplication.__table__  # type: ignore[attr-defined]

_APPLIED = Query(
    select(func.coalesce(func.sum(apps_t.c.applied_cents), 0)).where(
        apps_t.c.party_id == bindparam("party_id"),
        apps_t.c.tax_type == bindparam("tax_type"),
        apps_t.c.tax_year == bindparam("tax_year"),
    )
)
USE_COLUMNS = ("application_id", "party_id", "tax_type", "tax_year")
CERT_COLUMNS = ("id", "number", "root_id", "attributes")


class CreditApplicationRepository(Repository):
    table = "credit_applications"

    def applied_cents(self, party_id: str, tax_type: str, tax_year: int) -> int:
        """Cents the party applied against this tax in this tax year."""
        rows = self.where(party_id=party_id, tax_type=tax_type, tax_year=tax_year)
        return sum(int(r["applied_cents"]) for r in rows)

    def positive_uses_by(self, parties: frozenset[str]) -> list[Row]:
        """Every use of a positive amount by one of `parties`, by tax year and id: the
        application's id, party, tax type and year, and the certificate's id, number,
        root and attributes."""
        found: list[Row] = []
        for party_id in sorted(parties):
            for r in self.where(party_id=party_id):
                cert = self.store.get("certificates", r["certificate_id"])
                if int(r["applied_cents"]) > 0 and cert is not None:
                    use = {"application_id": r["id"]} | {c: r[c] for c in USE_COLUMNS[1:]}
                    found.append(use | {c: cert[c] for c in CERT_COLUMNS})
        return sorted(found, key=lambda u: (int(u["tax_year"]), u["application_id"]))


class RecaptureRepository(Repository):
    """Recaptures assessed (TB-40, BR-13), by id."""

    table = "recaptures"


class SqlCreditApplicationRepository(SqlMixin, CreditApplicationRepository):
    def applied_cents(self, party_id: str, tax_type: str, tax_year: int) -> int:
        params = {"party_id": party_id, "tax_type": tax_type, "tax_year": tax_year}
        return int(_APPLIED.scalar(self.conn, params) or 0)

    def positive_uses_by(self, parties: frozenset[str]) -> list[Row]:
        stmt = (
            select(
                apps_t.c.id.label("application_id"),
                apps_t.c.party_id,
                apps_t.c.tax_type,
                apps_t.c.tax_year,
                *(certs_t.c[c] for c in CERT_COLUMNS),
            )
            .join(certs_t, certs_t.c.id == apps_t.c.certificate_id)
            .where(apps_t.c.party_id.in_(sorted(parties)), apps_t.c.applied_cents > 0)
            .order_by(apps_t.c.tax_year, apps_t.c.id)
        )
        return [dict(r) for r in self.conn.execute(stmt).mappings()]
