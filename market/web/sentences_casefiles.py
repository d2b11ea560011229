"""Event sentences for the case file (RULES.md section 7): exhibits, fees, tax clearance
certificates and a TECH application's administrative steps. Each is `(event, names) ->
str` over its own event class."""

from __future__ import annotations

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
from market.web.event_words import Names, dollars, named, words


def document(e: DocumentFiled, n: Names) -> str:
    return (
        f"An exhibit was filed against {words(e.subject_type)} "
        f"{named(n, e.subject_id)}: {words(e.kind)}, version {e.version} "
        f"({e.media_type}, {e.bytes} bytes, SHA-256 {e.sha256[:16]}…)."
    )


def fee(e: FeeInvoiced, n: Names) -> str:
    credited = e.credited_cents
    return (
        f"The Authority invoiced {named(n, e.party_id)} a {words(e.kind)} fee of "
        f"{dollars(e.amount_cents)}"
        + (f", {dollars(credited)} of it credited" if credited else "")
        + "."
    )


def fee_paid(e: FeePaymentRecorded, n: Names) -> str:
    return (
        f"The Authority recorded a payment of {dollars(e.amount_cents)} by "
        f"{e.method} ({e.reference}), received {e.received_on}."
    )


def clearance(e: TaxClearanceRecorded, n: Names) -> str:
    renewal = " (a renewal)" if e.renews else ""
    return (
        f"Tax clearance certificate {e.certificate_number}{renewal} of "
        f"{named(n, e.party_id)} for {e.program}, issued {e.issued_on}, "
        f"valid until {e.valid_until}."
    )


def submitted(e: TechApplicationSubmitted, n: Names) -> str:
    return f"The seller submitted the TECH application with its package on {e.submitted_on}."


def preliminary(e: TechPreliminaryApproved, n: Names) -> str:
    listed = "; ".join(str(c) for c in e.conditions) if e.conditions else "no conditions"
    return f"The Authority granted preliminary approval with {listed}."


def forwarded(e: TechForwardedToTaxation, n: Names) -> str:
    day = e.forwarded_on
    return f"The Authority forwarded the application to the Division of Taxation on {day}."


def valued(e: TechTaxCertificateRecorded, n: Names) -> str:
    return (
        f"The Division of Taxation valued the benefit at {dollars(e.benefit_cents)} "
        f"(tax certificate {e.certificate_number}, {e.issued_on})."
    )


def board_action(e: BoardActionRecorded, n: Names) -> str:
    return (
        f"The Board voted to {e.decision} the BRRAG application of "
        f"{named(n, e.party_id)} ({dollars(e.amount_cents)}); the Governor received "
        f"the minutes on {e.governor_received_on}, so it takes effect on "
        f"{e.effective_on} unless vetoed."
    )


def governor(e: GovernorDecisionRecorded, n: Names) -> str:
    verb = "approved early" if e.decision == "approve" else "vetoed"
    return f"The Governor {verb} the Board's action on {e.decided_on}."
