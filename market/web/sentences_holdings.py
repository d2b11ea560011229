"""Event sentences for parties and their credit: registration and ownership, issuance and
the caps, TECH, returns and pass-through, recapture, reviews, reminders and trading halts.
Each is `(event, names) -> str` over its own event class; `event_sentences.SENTENCES`
maps the classes to them."""

from __future__ import annotations

from market.domain.events.certificates import (
    CapCharged,
    CertificateIssued,
    QueueAllowed,
    QueueDeferred,
)
from market.domain.events.deals import ReminderIssued
from market.domain.events.halts import CertificateNoticeIssued, CertificateNoticeLifted
from market.domain.events.parties import (
    DirectorExceptionRecorded,
    OwnersAgreementFiled,
    OwnershipRecorded,
    PartyRegistered,
)
from market.domain.events.returns import (
    CarryforwardExpired,
    CreditApplied,
    PassThroughAllocated,
    RecaptureAssessed,
)
from market.domain.events.tech import FyAllocationRun, TechApplicationReceived, TechReceiptRecorded
from market.domain.events.uth import UthReviewRecorded
from market.web.event_words import (
    ENTITIES,
    FUNDS,
    LIMITS,
    Names,
    dollars,
    named,
    share,
    words,
)
from market.web.uth_labels import finding_words


def party_registered(e: PartyRegistered, n: Names) -> str:
    taxes = ", ".join(e.tax_types) or "no tax"
    entity = ENTITIES.get(e.entity_type, f"a {words(e.entity_type)}")
    return f"{e.name} ({e.tax_id}) was registered as {entity} paying {taxes}."


def ownership(e: OwnershipRecorded, n: Names) -> str:
    income = e.income_share_bps
    tail = f" and {share(income)} of its income" if income is not None else ""
    return (
        f"{named(n, e.owner_party_id)} owns {share(e.voting_bps)} of the votes and "
        f"{share(e.value_bps)} of the value of {named(n, e.party_id)}{tail}."
    )


def agreement(e: OwnersAgreementFiled, n: Names) -> str:
    parts = "; ".join(
        f"{n.get(s['owner_party_id'], s['owner_party_id'])} {share(s['share_bps'])}"
        for s in e.shares
    )
    return (
        f"{named(n, e.party_id)} filed an owners' agreement on {e.filed_on} "
        f"setting its owners' shares: {parts}."
    )


def exception(e: DirectorExceptionRecorded, n: Names) -> str:
    return (
        f"The Authority recorded the Director's exception for {named(n, e.party_id)}: "
        f"{e.reason or 'no reason given'}."
    )


def issued(e: CertificateIssued, n: Names) -> str:
    number, holder = e.number, named(n, e.holder_party_id)
    face, program = dollars(e.face_cents), e.program
    if e.origin == "transfer":
        return f"Certificate {number} for {face} of {program} credit was created for {holder}."
    if e.origin == "pass_through":
        return (
            f"Certificate {number} for {face} of {program} credit was passed through to {holder}."
        )
    how = "allocated" if e.origin == "allocation" else "issued"
    tail = f"; {dollars(e.queued_cents)} waits in the queue" if e.queued_cents else ""
    return (
        f"Certificate {number} was {how} to {holder}: {face} of {program} credit for "
        f"FY {e.fiscal_year}{tail}."
    )


def cap_charged(e: CapCharged, n: Names) -> str:
    parts = "; ".join(
        f"{dollars(c.get('used_cents'))} against the {words(c.get('bucket'))} cap"
        + (f" for FY {c['fiscal_year']}" if c.get("fiscal_year") else " (lifetime)")
        for c in e.charges
    )
    return f"Charged {parts}." if parts else "No cap was charged."


def queue_allowed(e: QueueAllowed, n: Names) -> str:
    source = " from the queue" if e.from_queue else ""
    return (
        f"{dollars(e.allowed_cents)} was allowed{source} within the "
        f"{words(e.pool)} pool for FY {e.fiscal_year}."
    )


def queue_deferred(e: QueueDeferred, n: Names) -> str:
    return (
        f"{dollars(e.deferred_cents)} did not fit the {words(e.pool)} pool for "
        f"FY {e.fiscal_year} and waits in the queue at position {e.position}."
    )


def tech_application(e: TechApplicationReceived, n: Names) -> str:
    verdict = "eligible" if e.eligible else "not eligible"
    return (
        f"{named(n, e.party_id)} applied to sell TECH benefits for FY {e.fiscal_year}: "
        f"a benefit of {dollars(e.benefit_cents)}, asking {dollars(e.asked_cents)}; "
        f"{verdict}."
    )


def receipt(e: TechReceiptRecorded, n: Names) -> str:
    return (
        f"The Authority recorded the application's paper receipt on {e.received_on} "
        f"({e.receipt_reason or 'no reason given'})."
    )


def allocation(e: FyAllocationRun, n: Names) -> str:
    issued = sum(1 for a in e.allocations if a.get("certificate_id"))
    how = "pro rata, as the requests exceeded the cap" if e.triggered else "as asked"
    return (
        f"The FY {e.fiscal_year} TECH allocation was committed {how}: "
        f"{dollars(e.total_cents)} in {issued} certificate{'' if issued == 1 else 's'}."
    )


def applied(e: CreditApplied, n: Names) -> str:
    limit = LIMITS.get(e.limited_by, words(e.limited_by))
    return (
        f"{named(n, e.party_id)} applied {dollars(e.applied_cents)} to its "
        f"{e.tax_year} {e.tax_type} return (liability "
        f"{dollars(e.liability_cents)}), limited by {limit}; "
        f"{dollars(e.carried_forward_cents)} carries forward."
    )


def expired(e: CarryforwardExpired, n: Names) -> str:
    return (
        f"{dollars(e.amount_cents)} held by {named(n, e.party_id)} expired unused: "
        f"it could be carried forward only through tax year {e.carryover_last_year}."
    )


def pass_through(e: PassThroughAllocated, n: Names) -> str:
    parts = "; ".join(
        f"{n.get(a['party_id'], a['party_id'])} {dollars(a.get('amount_cents'))}"
        for a in e.allocations
    )
    basis = "the owners' agreement" if e.owners_agreement else words(e.basis)
    return (
        f"{named(n, e.party_id)} passed {dollars(e.amount_cents)} through to its "
        f"owners by {basis}: {parts}."
    )


def recapture(e: RecaptureAssessed, n: Names) -> str:
    fund = FUNDS.get(e.fund, words(e.fund))
    return (
        f"A recapture of {dollars(e.amount_cents)} of {e.program} credit was "
        f"assessed against {named(n, e.party_id)}: {e.reason} It goes to {fund}."
    )


def uth_review(e: UthReviewRecorded, n: Names) -> str:
    tail = f"; {dollars(e.cut_cents)} cut from the unsold part" if e.cut_cents else ""
    return (
        f"The annual review of tax period {e.tax_period} found "
        f"{finding_words(e.finding)}: {e.review}{tail}."
    )


def reminder(e: ReminderIssued, n: Names) -> str:
    return f"Reminder sent: {e.subject}."


def halted(e: CertificateNoticeIssued, n: Names) -> str:
    count = len(e.halted_certificate_ids)
    return (
        f"The Authority issued a {words(e.kind).lower()} notice ({e.reason}); "
        f"trading is halted in {count} certificate{'' if count == 1 else 's'}."
    )


def lifted(e: CertificateNoticeLifted, n: Names) -> str:
    return "The Authority lifted the notice; trading resumes unless another notice halts it."
