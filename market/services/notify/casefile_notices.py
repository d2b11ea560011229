"""What the case file's events tell people (RULES.md section 7): the party its exhibits,
fees, tax clearances and TECH steps concern, in the inbox and by e-mail. notices.py
folds this mapping into NOTICES (it imports this module last, so import that one)."""

from __future__ import annotations

from market.domain.events import DomainEvent
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
from market.services.notify.notices import AUTHORITY, Notice, keys

_APP = "/deals/tech/{application_id}"

CASEFILE_NOTICES: dict[type[DomainEvent], Notice] = {
    DocumentFiled: Notice(
        lambda f: [f.get("party_id"), AUTHORITY],
        "Exhibit filed: {kind}",
        "Version {version} of the {kind} exhibit ({media_type}, {bytes} bytes, SHA-256 "
        "{sha256}) was filed against {subject_type} {subject_id} by {filed_by}.",
        "/documents/{document_id}/download",
    ),
    FeeInvoiced: Notice(
        keys("party_id"),
        "Fee invoiced: {amount_dollars}",
        "The Authority invoiced {party} {amount_dollars} ({credited_dollars} credited). {reason}",
        "/fees",
        email=True,
    ),
    FeePaymentRecorded: Notice(
        keys("party_id"),
        "Payment recorded: {amount_dollars}",
        "The Authority recorded your payment of {amount_dollars} by {method} ({reference}), "
        "received {received_on}.",
        "/fees",
    ),
    TaxClearanceRecorded: Notice(
        keys("party_id"),
        "Tax clearance recorded: {certificate_number}",
        "Tax clearance certificate {certificate_number} ({program}), issued {issued_on}, "
        "is valid until {valid_until}; {renewals_left} renewals are left this year.",
        "/fees",
    ),
    TechApplicationSubmitted: Notice(
        lambda f: [f.get("party_id"), AUTHORITY],
        "TECH application submitted",
        "The TECH application was submitted with its package on {submitted_on}; the "
        "Authority reviews it next.",
        _APP,
        email=True,
    ),
    TechPreliminaryApproved: Notice(
        keys("party_id"),
        "TECH application: preliminary approval",
        "The Authority granted preliminary approval on {approved_on} with these conditions: "
        "{conditions}. File the exhibits Taxation needs so it can be forwarded.",
        _APP,
        email=True,
    ),
    TechForwardedToTaxation: Notice(
        keys("party_id"),
        "TECH application forwarded to Taxation",
        "The Authority forwarded the application to the Division of Taxation on {forwarded_on}.",
        _APP,
    ),
    TechTaxCertificateRecorded: Notice(
        keys("party_id"),
        "TECH benefit valued: {benefit_dollars}",
        "The Division of Taxation valued the benefit at {benefit_dollars} (tax certificate "
        "{certificate_number}, {issued_on}). Final approval follows at closing.",
        _APP,
        email=True,
    ),
    BoardActionRecorded: Notice(
        keys("party_id"),
        "BRRAG Board action: {decision}",
        "The Board voted to {decision} your BRRAG application ({amount_dollars}). The "
        "Governor received the minutes on {governor_received_on}; the action takes effect "
        "on {effective_on} unless the Governor approves it earlier or vetoes it.",
        "/fees",
        email=True,
    ),
    GovernorDecisionRecorded: Notice(
        keys("party_id"),
        "BRRAG Board action: the Governor's decision",
        "The Governor's decision on the Board's action: {decision} ({decided_on}).",
        "/fees",
        email=True,
    ),
}
