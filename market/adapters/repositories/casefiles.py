"""The case file's rows (RULES.md section 7): exhibits by subject, fees by party or step,
tax clearances by party and program, a TECH application's ADM steps; each read as its
typed record (`domain/model/case_file.py`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from market.adapters.projections.store import Row
from market.adapters.repositories.base import Repository
from market.domain.model.case_file import (
    ApplicationOnFile,
    BoardAction,
    ClosedSale,
    Document,
    Fee,
    TaxClearance,
    TechCaseFile,
    TransferOnFile,
)


def document_of(row: Row) -> Document:
    return {
        "id": str(row["id"]),
        "kind": str(row["kind"]),
        "subject_type": str(row["subject_type"]),
        "subject_id": str(row["subject_id"]),
        "party_id": row.get("party_id"),
        "sha256": str(row["sha256"]),
        "bytes": int(row["bytes"]),
        "media_type": str(row["media_type"]),
        "filename": str(row["filename"]),
        "version": int(row["version"]),
        "filed_by": str(row["filed_by"]),
        "filed_at": str(row["filed_at"]),
        "filed_seq": int(row["filed_seq"]),
    }


def fee_of(row: Row) -> Fee:
    return {
        "id": str(row["id"]),
        "party_id": str(row["party_id"]),
        "kind": str(row["kind"]),
        "program": str(row["program"]),
        "subject_id": str(row["subject_id"]),
        "amount_cents": int(row["amount_cents"]),
        "credited_cents": int(row["credited_cents"]),
        "paid_cents": int(row["paid_cents"]),
        "reason": str(row["reason"]),
        "invoiced_on": str(row["invoiced_on"]),
        "ruleset": str(row["ruleset"]),
        "invoiced_seq": int(row["invoiced_seq"]),
    }


def clearance_of(row: Row) -> TaxClearance:
    return {
        "id": str(row["id"]),
        "party_id": str(row["party_id"]),
        "program": str(row["program"]),
        "certificate_number": str(row["certificate_number"]),
        "issued_on": str(row["issued_on"]),
        "renews": row.get("renews"),
        "valid_until": str(row["valid_until"]),
        "renewals_left": int(row["renewals_left"]),
        "recorded_seq": int(row["recorded_seq"]),
    }


def board_action_of(row: Row) -> BoardAction:
    return {
        "id": str(row["id"]),
        "party_id": str(row["party_id"]),
        "decision": str(row["decision"]),
        "amount_cents": int(row["amount_cents"]),
        "board_met_on": str(row["board_met_on"]),
        "governor_received_on": str(row["governor_received_on"]),
        "period_ends_on": str(row["period_ends_on"]),
        "effective_on": row.get("effective_on"),
        "submitted_on": str(row["submitted_on"]),
        "conditions": list(row["conditions"] or []),
        "governor_decision": row.get("governor_decision"),
        "governor_decided_on": row.get("governor_decided_on"),
        "recorded_seq": int(row["recorded_seq"]),
    }


def case_file_of(row: Row) -> TechCaseFile:
    valued = row.get("valued_benefit_cents")
    conditions = row.get("conditions")
    return {
        "application_id": str(row["application_id"]),
        "party_id": str(row["party_id"]),
        "submitted_on": str(row["submitted_on"]),
        "preliminary_on": row.get("preliminary_on"),
        "conditions": None if conditions is None else list(conditions),
        "forwarded_on": row.get("forwarded_on"),
        "tax_certificate_number": row.get("tax_certificate_number"),
        "valued_benefit_cents": None if valued is None else int(valued),
        "tax_certificate_issued_on": row.get("tax_certificate_issued_on"),
    }


def closed_sales_of(rows: Iterable[Row]) -> list[ClosedSale]:
    """Approved transfers' rows as ADM-9 reads them; one without an exchange date (none
    recorded) is no sale it counts."""
    return [
        ClosedSale(
            transfer_id=str(row["id"]),
            amount_cents=int(row["amount_cents"]),
            exchange_date=date.fromisoformat(str(row["exchange_date"])),
            decided_seq=int(row.get("decided_seq") or 0),
        )
        for row in rows
        if row.get("exchange_date")
    ]


def application_on_file(row: Mapping[str, Any]) -> ApplicationOnFile:
    """A `tech_applications` row as its case file reads it."""
    return ApplicationOnFile(
        id=str(row["id"]),
        party_id=str(row["party_id"]),
        ruleset=str(row["ruleset"]),
        fiscal_year=int(row["fiscal_year"]),
        received_on=date.fromisoformat(str(row["received_on"])),
    )


def transfer_on_file(row: Mapping[str, Any]) -> TransferOnFile:
    """A `transfers` row as its case file reads it."""
    return TransferOnFile(
        id=str(row["id"]),
        program=str(row["program"]),
        status=str(row["status"]),
        ruleset=str(row["ruleset"]),
    )


class DocumentRepository(Repository):
    table = "documents"

    def load(self, document_id: str) -> Document | None:
        row = self.get(document_id)
        return None if row is None else document_of(row)

    def of_subject(self, subject_type: str, subject_id: str) -> list[Document]:
        """Every version filed against the subject, oldest first."""
        rows = self.where(subject_type=subject_type, subject_id=subject_id)
        return sorted((document_of(r) for r in rows), key=lambda d: d["filed_seq"])

    def latest_version(self, subject_type: str, subject_id: str, kind: str) -> int:
        rows = self.where(subject_type=subject_type, subject_id=subject_id, kind=kind)
        return max((int(r["version"]) for r in rows), default=0)


class FeeRepository(Repository):
    table = "fees"

    def load(self, fee_id: str) -> Fee | None:
        row = self.get(fee_id)
        return None if row is None else fee_of(row)

    def every(self) -> list[Fee]:
        """Every fee, in the order invoiced."""
        return sorted((fee_of(r) for r in self.where()), key=lambda f: f["invoiced_seq"])

    def of_party(self, party_id: str) -> list[Fee]:
        fees = (fee_of(r) for r in self.where(party_id=party_id))
        return sorted(fees, key=lambda f: f["invoiced_seq"])

    def of_subject(self, subject_id: str) -> list[Fee]:
        fees = (fee_of(r) for r in self.where(subject_id=subject_id))
        return sorted(fees, key=lambda f: f["invoiced_seq"])

    def payments(self, fee_id: str) -> list[Row]:
        rows = self.store.rows("fee_payments", fee_id=fee_id)
        return sorted(rows, key=lambda r: int(r["recorded_seq"]))


class TaxClearanceRepository(Repository):
    table = "tax_clearances"

    def load(self, clearance_id: str) -> TaxClearance | None:
        row = self.get(clearance_id)
        return None if row is None else clearance_of(row)

    def every(self) -> list[TaxClearance]:
        return [clearance_of(r) for r in self.where()]

    def of_party(self, party_id: str, program: str | None = None) -> list[TaxClearance]:
        where = {"party_id": party_id} | ({"program": program} if program else {})
        found = (clearance_of(r) for r in self.where(**where))
        return sorted(found, key=lambda c: (c["issued_on"], c["recorded_seq"]))


class TechCaseFileRepository(Repository):
    table = "tech_case_files"

    def load(self, application_id: str) -> TechCaseFile | None:
        row = self.get(application_id)
        return None if row is None else case_file_of(row)

    def submitted_on_by_application(self) -> dict[str, date]:
        """Each submitted application's day of submission (ADM-5, ADM-6)."""
        return {
            str(r["application_id"]): date.fromisoformat(str(r["submitted_on"]))
            for r in self.where()
        }


class BoardActionRepository(Repository):
    table = "board_actions"

    def load(self, action_id: str) -> BoardAction | None:
        row = self.get(action_id)
        return None if row is None else board_action_of(row)

    def of_party(self, party_id: str | None = None) -> list[BoardAction]:
        """A party's actions (every party's: None), in the order of submission (ADM-9)."""
        rows = self.where() if party_id is None else self.where(party_id=party_id)
        found = (board_action_of(r) for r in rows)
        return sorted(found, key=lambda a: (a["submitted_on"], a["recorded_seq"]))
