"""Event sentences for parties and their credit: registration and ownership, issuance and
the caps, TECH, returns and pass-through, recapture, reviews, reminders and trading halts.
Each is `(payload, names) -> str`; `event_sentences.SENTENCES` maps the types to them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.web.event_words import (
    ENTITIES,
    FUNDS,
    LIMITS,
    Names,
    dollars,
    name_of,
    share,
    words,
)
from market.web.uth_labels import finding_words


def party_registered(p: Mapping[str, Any], n: Names) -> str:
    taxes = ", ".join(p.get("tax_types") or []) or "no tax"
    entity = ENTITIES.get(str(p.get("entity_type")), f"a {words(p.get('entity_type'))}")
    return f"{p.get('name')} ({p.get('tax_id')}) was registered as {entity} paying {taxes}."


def ownership(p: Mapping[str, Any], n: Names) -> str:
    income = p.get("income_share_bps")
    tail = f" and {share(income)} of its income" if income is not None else ""
    return (
        f"{name_of(n, 'owner_party_id', p)} owns {share(p['voting_bps'])} of the votes and "
        f"{share(p['value_bps'])} of the value of {name_of(n, 'party_id', p)}{tail}."
    )


def agreement(p: Mapping[str, Any], n: Names) -> str:
    parts = "; ".join(
        f"{n.get(s['owner_party_id'], s['owner_party_id'])} {share(s['share_bps'])}"
        for s in p.get("shares") or []
    )
    return (
        f"{name_of(n, 'party_id', p)} filed an owners' agreement on {p.get('filed_on')} "
        f"setting its owners' shares: {parts}."
    )


def exception(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Authority recorded the Director's exception for {name_of(n, 'party_id', p)}: "
        f"{p.get('reason') or 'no reason given'}."
    )


def issued(p: Mapping[str, Any], n: Names) -> str:
    number, holder = p.get("number"), name_of(n, "holder_party_id", p)
    face, program = dollars(p.get("face_cents")), p.get("program")
    origin = p.get("origin")
    if origin == "transfer":
        return f"Certificate {number} for {face} of {program} credit was created for {holder}."
    if origin == "pass_through":
        return (
            f"Certificate {number} for {face} of {program} credit was passed through to {holder}."
        )
    how = "allocated" if origin == "allocation" else "issued"
    queued = int(p.get("queued_cents") or 0)
    tail = f"; {dollars(queued)} waits in the queue" if queued else ""
    return (
        f"Certificate {number} was {how} to {holder}: {face} of {program} credit for "
        f"FY {p.get('fiscal_year')}{tail}."
    )


def cap_charged(p: Mapping[str, Any], n: Names) -> str:
    charges = p.get("charges") or []
    parts = "; ".join(
        f"{dollars(c.get('used_cents'))} against the {words(c.get('bucket'))} cap"
        + (f" for FY {c['fiscal_year']}" if c.get("fiscal_year") else " (lifetime)")
        for c in charges
    )
    return f"Charged {parts}." if parts else "No cap was charged."


def queue_allowed(p: Mapping[str, Any], n: Names) -> str:
    source = " from the queue" if p.get("from_queue") else ""
    return (
        f"{dollars(p.get('allowed_cents'))} was allowed{source} within the "
        f"{words(p.get('pool'))} pool for FY {p.get('fiscal_year')}."
    )


def queue_deferred(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{dollars(p.get('deferred_cents'))} did not fit the {words(p.get('pool'))} pool for "
        f"FY {p.get('fiscal_year')} and waits in the queue at position {p.get('position')}."
    )


def tech_application(p: Mapping[str, Any], n: Names) -> str:
    verdict = "eligible" if p.get("eligible") else "not eligible"
    return (
        f"{name_of(n, 'party_id', p)} applied to sell TECH benefits for FY {p.get('fiscal_year')}: "
        f"a benefit of {dollars(p.get('benefit_cents'))}, asking {dollars(p.get('asked_cents'))}; "
        f"{verdict}."
    )


def receipt(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Authority recorded the application's paper receipt on {p['received_on']} "
        f"({p.get('receipt_reason') or 'no reason given'})."
    )


def allocation(p: Mapping[str, Any], n: Names) -> str:
    issued = sum(1 for a in p.get("allocations") or [] if a.get("certificate_id"))
    how = "pro rata, as the requests exceeded the cap" if p.get("triggered") else "as asked"
    return (
        f"The FY {p.get('fiscal_year')} TECH allocation was committed {how}: "
        f"{dollars(p.get('total_cents'))} in {issued} certificate{'' if issued == 1 else 's'}."
    )


def applied(p: Mapping[str, Any], n: Names) -> str:
    limit = LIMITS.get(str(p.get("limited_by")), words(p.get("limited_by")))
    return (
        f"{name_of(n, 'party_id', p)} applied {dollars(p.get('applied_cents'))} to its "
        f"{p.get('tax_year')} {p.get('tax_type')} return (liability "
        f"{dollars(p.get('liability_cents'))}), limited by {limit}; "
        f"{dollars(p.get('carried_forward_cents'))} carries forward."
    )


def expired(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{dollars(p.get('amount_cents'))} held by {name_of(n, 'party_id', p)} expired unused: "
        f"it could be carried forward only through tax year {p.get('carryover_last_year')}."
    )


def pass_through(p: Mapping[str, Any], n: Names) -> str:
    parts = "; ".join(
        f"{n.get(a['party_id'], a['party_id'])} {dollars(a.get('amount_cents'))}"
        for a in p.get("allocations") or []
    )
    basis = "the owners' agreement" if p.get("owners_agreement") else words(p.get("basis"))
    return (
        f"{name_of(n, 'party_id', p)} passed {dollars(p.get('amount_cents'))} through to its "
        f"owners by {basis}: {parts}."
    )


def recapture(p: Mapping[str, Any], n: Names) -> str:
    fund = FUNDS.get(str(p.get("fund")), words(p.get("fund")))
    return (
        f"A recapture of {dollars(p.get('amount_cents'))} of {p.get('program')} credit was "
        f"assessed against {name_of(n, 'party_id', p)}: {p.get('reason')} It goes to {fund}."
    )


def uth_review(p: Mapping[str, Any], n: Names) -> str:
    cut = int(p.get("cut_cents") or 0)
    tail = f"; {dollars(cut)} cut from the unsold part" if cut else ""
    return (
        f"The annual review of tax period {p.get('tax_period')} found "
        f"{finding_words(p.get('finding'))}: {p.get('review')}{tail}."
    )


def reminder(p: Mapping[str, Any], n: Names) -> str:
    return f"Reminder sent: {p['subject']}."


def halted(p: Mapping[str, Any], n: Names) -> str:
    count = len(p.get("halted_certificate_ids") or [])
    return (
        f"The Authority issued a {words(p['kind']).lower()} notice ({p.get('reason')}); "
        f"trading is halted in {count} certificate{'' if count == 1 else 's'}."
    )


def lifted(p: Mapping[str, Any], n: Names) -> str:
    return "The Authority lifted the notice; trading resumes unless another notice halts it."
