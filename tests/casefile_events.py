"""Sample payloads of the case file's event types (RULES.md section 7), which came after
the old ledger (tests/ledger_v1.py) was written: the event tests read them beside it."""

from __future__ import annotations

from typing import Any

SAMPLES: dict[str, list[dict[str, Any]]] = {
    "DOCUMENT_FILED": [
        {
            "document_id": "doc_1",
            "kind": "business_plan",
            "subject_type": "tech_application",
            "subject_id": "tapp_1",
            "party_id": "pty_s",
            "sha256": "ab" * 32,
            "bytes": 1234,
            "media_type": "application/pdf",
            "filename": "plan.pdf",
            "version": 1,
            "filed_by": "user:u1@pty_s",
            "filed_at": "2025-03-03T15:00:00+00:00",
        },
        {
            "document_id": "doc_2",
            "kind": "certificate_of_formation",
            "subject_type": "registration",
            "subject_id": "reg_1",
            "party_id": None,
            "sha256": "cd" * 32,
            "bytes": 9,
            "media_type": "text/csv",
            "filename": "x.csv",
            "version": 2,
            "filed_by": "user:u2@authority",
            "filed_at": "2025-03-03T15:00:00+00:00",
        },
    ],
    "FEE_INVOICED": [
        {
            "fee_id": "fee_1",
            "party_id": "pty_s",
            "kind": "tech_approval",
            "program": "TECH",
            "subject_id": "tapp_1",
            "amount_cents": 2_000_000,
            "credited_cents": 100_000,
            "reason": "ADM-2",
            "invoiced_on": "2025-03-03",
            "ruleset": "A1178",
        }
    ],
    "FEE_PAYMENT_RECORDED": [
        {
            "fee_id": "fee_1",
            "payment_id": "fpay_1",
            "party_id": "pty_s",
            "amount_cents": 100_000,
            "method": "check",
            "reference": "CHK 1",
            "received_on": "2025-03-03",
            "recorded_at": "2025-03-03T15:00:00+00:00",
        }
    ],
    "TAX_CLEARANCE_RECORDED": [
        {
            "clearance_id": "tcc_2",
            "party_id": "pty_s",
            "program": "TECH",
            "certificate_number": "TCC-2",
            "issued_on": "2025-03-01",
            "renews": "tcc_1",
            "valid_until": "2025-05-29",
            "renewals_left": 2,
            "recorded_at": "2025-03-03T15:00:00+00:00",
        }
    ],
    "TECH_APPLICATION_SUBMITTED": [
        {
            "application_id": "tapp_1",
            "party_id": "pty_s",
            "submitted_on": "2025-03-03",
            "document_ids": ["doc_1"],
        }
    ],
    "TECH_PRELIMINARY_APPROVED": [
        {
            "application_id": "tapp_1",
            "party_id": "pty_s",
            "approved_on": "2025-03-04",
            "conditions": ["A statement dated the day of closing"],
        }
    ],
    "TECH_FORWARDED_TO_TAXATION": [
        {
            "application_id": "tapp_1",
            "party_id": "pty_s",
            "forwarded_on": "2025-03-05",
            "document_ids": [],
        }
    ],
    "TECH_TAX_CERTIFICATE_RECORDED": [
        {
            "application_id": "tapp_1",
            "party_id": "pty_s",
            "benefit_cents": 500_000_000,
            "certificate_number": "TAX-9",
            "issued_on": "2025-03-06",
        }
    ],
    "BOARD_ACTION_RECORDED": [
        {
            "action_id": "bact_1",
            "party_id": "pty_s",
            "decision": "approve",
            "amount_cents": 150_000_000,
            "board_met_on": "2024-10-30",
            "governor_received_on": "2024-11-01",
            "period_ends_on": "2024-11-19",
            "effective_on": "2024-11-20",
            "submitted_on": "2024-09-01",
            "conditions": ["A statement dated the day of closing"],
        }
    ],
    "GOVERNOR_DECISION_RECORDED": [
        {"action_id": "bact_1", "party_id": "pty_s", "decision": "veto", "decided_on": "2024-11-15"}
    ],
}
