"""The case file (RULES.md section 7): exhibits, fees, tax clearances, TECH ADM steps."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require
from market.domain.events.casefiles import (
    BoardActionRecorded,
    DocumentFiled,
    FeeInvoiced,
    FeePaymentRecorded,
    GovernorDecisionRecorded,
    TaxClearanceRecorded,
    TechApplicationSubmitted,
    TechForwardedToTaxation,
    TechPreliminaryApproved,
    TechTaxCertificateRecorded,
)


@handles(DocumentFiled)
def document_filed(store: Store, seq: int, e: DocumentFiled) -> None:
    store.insert(
        "documents",
        {
            "id": e.document_id,
            "kind": e.kind,
            "subject_type": e.subject_type,
            "subject_id": e.subject_id,
            "party_id": e.party_id,
            "sha256": e.sha256,
            "bytes": e.bytes,
            "media_type": e.media_type,
            "filename": e.filename,
            "version": e.version,
            "filed_by": e.filed_by,
            "filed_at": e.filed_at,
            "filed_seq": seq,
        },
    )


@handles(FeeInvoiced)
def fee_invoiced(store: Store, seq: int, e: FeeInvoiced) -> None:
    store.insert(
        "fees",
        {
            "id": e.fee_id,
            "party_id": e.party_id,
            "kind": e.kind,
            "program": e.program,
            "subject_id": e.subject_id,
            "amount_cents": e.amount_cents,
            "credited_cents": e.credited_cents,
            "paid_cents": 0,
            "reason": e.reason,
            "invoiced_on": e.invoiced_on,
            "ruleset": e.ruleset,
            "invoiced_seq": seq,
        },
    )


@handles(FeePaymentRecorded)
def fee_paid(store: Store, seq: int, e: FeePaymentRecorded) -> None:
    fee = require(store, "fees", e.fee_id)
    store.update("fees", e.fee_id, {"paid_cents": int(fee["paid_cents"]) + e.amount_cents})
    store.insert(
        "fee_payments",
        {
            "id": e.payment_id,
            "fee_id": e.fee_id,
            "party_id": e.party_id,
            "amount_cents": e.amount_cents,
            "method": e.method,
            "reference": e.reference,
            "received_on": e.received_on,
            "recorded_seq": seq,
        },
    )


@handles(TaxClearanceRecorded)
def clearance_recorded(store: Store, seq: int, e: TaxClearanceRecorded) -> None:
    store.insert(
        "tax_clearances",
        {
            "id": e.clearance_id,
            "party_id": e.party_id,
            "program": e.program,
            "certificate_number": e.certificate_number,
            "issued_on": e.issued_on,
            "renews": e.renews,
            "valid_until": e.valid_until,
            "renewals_left": e.renewals_left,
            "recorded_seq": seq,
        },
    )


@handles(TechApplicationSubmitted)
def submitted(store: Store, seq: int, e: TechApplicationSubmitted) -> None:
    store.insert(
        "tech_case_files",
        {
            "application_id": e.application_id,
            "party_id": e.party_id,
            "submitted_on": e.submitted_on,
            "preliminary_on": None,
            "conditions": None,
            "forwarded_on": None,
            "tax_certificate_number": None,
            "valued_benefit_cents": None,
            "tax_certificate_issued_on": None,
        },
    )


@handles(TechPreliminaryApproved)
def preliminary(store: Store, seq: int, e: TechPreliminaryApproved) -> None:
    require(store, "tech_case_files", e.application_id)
    store.update(
        "tech_case_files",
        e.application_id,
        {"preliminary_on": e.approved_on, "conditions": list(e.conditions)},
    )


@handles(TechForwardedToTaxation)
def forwarded(store: Store, seq: int, e: TechForwardedToTaxation) -> None:
    require(store, "tech_case_files", e.application_id)
    store.update("tech_case_files", e.application_id, {"forwarded_on": e.forwarded_on})


@handles(TechTaxCertificateRecorded)
def valued(store: Store, seq: int, e: TechTaxCertificateRecorded) -> None:
    require(store, "tech_case_files", e.application_id)
    store.update(
        "tech_case_files",
        e.application_id,
        {
            "tax_certificate_number": e.certificate_number,
            "valued_benefit_cents": e.benefit_cents,
            "tax_certificate_issued_on": e.issued_on,
        },
    )


@handles(BoardActionRecorded)
def board_action(store: Store, seq: int, e: BoardActionRecorded) -> None:
    store.insert(
        "board_actions",
        {
            "id": e.action_id,
            "party_id": e.party_id,
            "decision": e.decision,
            "amount_cents": e.amount_cents,
            "board_met_on": e.board_met_on,
            "governor_received_on": e.governor_received_on,
            "period_ends_on": e.period_ends_on,
            "effective_on": e.effective_on,
            "submitted_on": e.submitted_on,
            "conditions": list(e.conditions),
            "governor_decision": None,
            "governor_decided_on": None,
            "recorded_seq": seq,
        },
    )


@handles(GovernorDecisionRecorded)
def governor_decision(store: Store, seq: int, e: GovernorDecisionRecorded) -> None:
    require(store, "board_actions", e.action_id)
    changes: dict[str, object] = {
        "governor_decision": e.decision,
        "governor_decided_on": e.decided_on,
    }
    changes["effective_on"] = e.decided_on if e.decision == "approve" else None
    store.update("board_actions", e.action_id, changes)
