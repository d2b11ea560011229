"""The case file's rows (RULES.md section 7): exhibits by subject, fees by party or step,
tax clearances by party and program, a TECH application's ADM steps."""

from __future__ import annotations

from datetime import date

from market.adapters.projections.store import Row
from market.adapters.repositories.base import Repository


class DocumentRepository(Repository):
    table = "documents"

    def of_subject(self, subject_type: str, subject_id: str) -> list[Row]:
        """Every version filed against the subject, oldest first."""
        rows = self.where(subject_type=subject_type, subject_id=subject_id)
        return sorted(rows, key=lambda r: int(r["filed_seq"]))

    def latest_version(self, subject_type: str, subject_id: str, kind: str) -> int:
        rows = self.where(subject_type=subject_type, subject_id=subject_id, kind=kind)
        return max((int(r["version"]) for r in rows), default=0)


class FeeRepository(Repository):
    table = "fees"

    def of_party(self, party_id: str) -> list[Row]:
        return sorted(self.where(party_id=party_id), key=lambda r: int(r["invoiced_seq"]))

    def of_subject(self, subject_id: str) -> list[Row]:
        return sorted(self.where(subject_id=subject_id), key=lambda r: int(r["invoiced_seq"]))

    def payments(self, fee_id: str) -> list[Row]:
        rows = self.store.rows("fee_payments", fee_id=fee_id)
        return sorted(rows, key=lambda r: int(r["recorded_seq"]))


class TaxClearanceRepository(Repository):
    table = "tax_clearances"

    def of_party(self, party_id: str, program: str | None = None) -> list[Row]:
        where = {"party_id": party_id} | ({"program": program} if program else {})
        rows = self.where(**where)
        return sorted(rows, key=lambda r: (str(r["issued_on"]), int(r["recorded_seq"])))


class TechCaseFileRepository(Repository):
    table = "tech_case_files"

    def submitted_on_by_application(self) -> dict[str, date]:
        """Each submitted application's day of submission (ADM-5, ADM-6)."""
        return {
            str(r["application_id"]): date.fromisoformat(str(r["submitted_on"]))
            for r in self.where()
        }


class BoardActionRepository(Repository):
    table = "board_actions"
