"""Each ledger event in one sentence, in words and dollars, for the certificate page and the
ledger explorer. Pure: the page passes the names it knows (party ids and certificate ids to
names and numbers); an id it does not know is shown as it is, and an event type this module
does not know reads as its type in words. The raw payload stays one click away."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from market.domain.values import format_cents

Names = Mapping[str, str]
Sentence = Callable[[Mapping[str, Any], Names], str]

FUNDS = {
    "general_fund": "the General Fund",
    "property_tax_relief_fund": "the Property Tax Relief Fund",
}
LIMITS = {
    "requested": "the amount asked",
    "balance": "the usable balance",
    "fifty_percent_ceiling": "the 50% ceiling",
    "statutory_minimum": "the CBT statutory minimum",
    "liability": "the tax liability",
    "section_40_ratio": "the owner's §40 share",
}


def dollars(cents: Any) -> str:
    return "an unknown amount" if cents is None else format_cents(int(cents))


def share(bps: Any) -> str:
    """Basis points as a percentage, exactly when it is whole (2,500 bps = 25%)."""
    value = Fraction(int(bps), 100)
    return f"{value.numerator}%" if value.denominator == 1 else f"{float(value):.2f}%"


def per_dollar(price: Any, amount: Any) -> str:
    if not amount:
        return "—"
    value = Fraction(int(price) * 10_000, int(amount))
    return f"{round(value) / 100:.2f}% of the amount"


def words(code: Any) -> str:
    return str(code or "").replace("_", " ")


def _name(names: Names, key: str, p: Mapping[str, Any]) -> str:
    value = p.get(key)
    return names.get(str(value), str(value)) if value else "someone"


ENTITIES = {
    "c_corporation": "a C corporation",
    "s_corporation": "an S corporation",
    "partnership": "a partnership",
    "llc": "an LLC",
    "sole_proprietorship": "a sole proprietorship",
    "individual": "an individual",
    "insurance_company": "an insurance company",
}


def _party_registered(p: Mapping[str, Any], n: Names) -> str:
    taxes = ", ".join(p.get("tax_types") or []) or "no tax"
    entity = ENTITIES.get(str(p.get("entity_type")), f"a {words(p.get('entity_type'))}")
    return f"{p.get('name')} ({p.get('tax_id')}) was registered as {entity} paying {taxes}."


def _ownership(p: Mapping[str, Any], n: Names) -> str:
    income = p.get("income_share_bps")
    tail = f" and {share(income)} of its income" if income is not None else ""
    return (
        f"{_name(n, 'owner_party_id', p)} owns {share(p['voting_bps'])} of the votes and "
        f"{share(p['value_bps'])} of the value of {_name(n, 'party_id', p)}{tail}."
    )


def _agreement(p: Mapping[str, Any], n: Names) -> str:
    parts = "; ".join(
        f"{n.get(s['owner_party_id'], s['owner_party_id'])} {share(s['share_bps'])}"
        for s in p.get("shares") or []
    )
    return (
        f"{_name(n, 'party_id', p)} filed an owners' agreement on {p.get('filed_on')} "
        f"setting its owners' shares: {parts}."
    )


def _issued(p: Mapping[str, Any], n: Names) -> str:
    number, holder = p.get("number"), _name(n, "holder_party_id", p)
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


def _cap_charged(p: Mapping[str, Any], n: Names) -> str:
    charges = p.get("charges") or []
    parts = "; ".join(
        f"{dollars(c.get('used_cents'))} against the {words(c.get('bucket'))} cap"
        + (f" for FY {c['fiscal_year']}" if c.get("fiscal_year") else " (lifetime)")
        for c in charges
    )
    return f"Charged {parts}." if parts else "No cap was charged."


def _queue_allowed(p: Mapping[str, Any], n: Names) -> str:
    source = " from the queue" if p.get("from_queue") else ""
    return (
        f"{dollars(p.get('allowed_cents'))} was allowed{source} within the "
        f"{words(p.get('pool'))} pool for FY {p.get('fiscal_year')}."
    )


def _queue_deferred(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{dollars(p.get('deferred_cents'))} did not fit the {words(p.get('pool'))} pool for "
        f"FY {p.get('fiscal_year')} and waits in the queue at position {p.get('position')}."
    )


def _tech_application(p: Mapping[str, Any], n: Names) -> str:
    verdict = "eligible" if p.get("eligible") else "not eligible"
    return (
        f"{_name(n, 'party_id', p)} applied to sell TECH benefits for FY {p.get('fiscal_year')}: "
        f"a benefit of {dollars(p.get('benefit_cents'))}, asking {dollars(p.get('asked_cents'))}; "
        f"{verdict}."
    )


def _allocation(p: Mapping[str, Any], n: Names) -> str:
    issued = sum(1 for a in p.get("allocations") or [] if a.get("certificate_id"))
    how = "pro rata, as the requests exceeded the cap" if p.get("triggered") else "as asked"
    return (
        f"The FY {p.get('fiscal_year')} TECH allocation was committed {how}: "
        f"{dollars(p.get('total_cents'))} in {issued} certificate{'' if issued == 1 else 's'}."
    )


def _listing(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{_name(n, 'seller_party_id', p)} listed {dollars(p.get('amount_cents'))} of credit "
        f"from {_name(n, 'certificate_id', p)} for {dollars(p.get('ask_cents'))} "
        f"({per_dollar(p.get('ask_cents'), p.get('amount_cents'))})."
    )


def _offer(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{_name(n, 'buyer_party_id', p)} offered {dollars(p.get('price_cents'))} for "
        f"{dollars(p.get('amount_cents'))} of credit from {_name(n, 'certificate_id', p)} "
        f"({per_dollar(p.get('price_cents'), p.get('amount_cents'))})."
    )


def _proposed(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{_name(n, 'seller_party_id', p)} asked to transfer {dollars(p.get('amount_cents'))} of "
        f"{p.get('program')} credit to {_name(n, 'buyer_party_id', p)} for "
        f"{dollars(p.get('consideration_cents'))} "
        f"({per_dollar(p.get('consideration_cents'), p.get('amount_cents'))}); "
        "it awaits the Authority's approval."
    )


def _approved(p: Mapping[str, Any], n: Names) -> str:
    checks = p.get("checks") or []
    return (
        f"The Authority approved the transfer of {dollars(p.get('amount_cents'))} after "
        f"{len(checks)} rule check{'' if len(checks) == 1 else 's'}; the buyer holds "
        f"{_name(n, 'buyer_certificate_id', p)}."
    )


def _rejected(p: Mapping[str, Any], n: Names) -> str:
    reasons = " ".join(str(r) for r in p.get("reasons") or []) or "no reason given."
    return f"The Authority rejected the transfer: {reasons}"


def _applied(p: Mapping[str, Any], n: Names) -> str:
    limit = LIMITS.get(str(p.get("limited_by")), words(p.get("limited_by")))
    return (
        f"{_name(n, 'party_id', p)} applied {dollars(p.get('applied_cents'))} to its "
        f"{p.get('tax_year')} {p.get('tax_type')} return (liability "
        f"{dollars(p.get('liability_cents'))}), limited by {limit}; "
        f"{dollars(p.get('carried_forward_cents'))} carries forward."
    )


def _expired(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{dollars(p.get('amount_cents'))} held by {_name(n, 'party_id', p)} expired unused: "
        f"it could be carried forward only through tax year {p.get('carryover_last_year')}."
    )


def _pass_through(p: Mapping[str, Any], n: Names) -> str:
    parts = "; ".join(
        f"{n.get(a['party_id'], a['party_id'])} {dollars(a.get('amount_cents'))}"
        for a in p.get("allocations") or []
    )
    basis = "the owners' agreement" if p.get("owners_agreement") else words(p.get("basis"))
    return (
        f"{_name(n, 'party_id', p)} passed {dollars(p.get('amount_cents'))} through to its "
        f"owners by {basis}: {parts}."
    )


def _recapture(p: Mapping[str, Any], n: Names) -> str:
    fund = FUNDS.get(str(p.get("fund")), words(p.get("fund")))
    return (
        f"A recapture of {dollars(p.get('amount_cents'))} of {p.get('program')} credit was "
        f"assessed against {_name(n, 'party_id', p)}: {p.get('reason')} It goes to {fund}."
    )


def _uth_review(p: Mapping[str, Any], n: Names) -> str:
    cut = int(p.get("cut_cents") or 0)
    tail = f"; {dollars(cut)} cut from the unsold part" if cut else ""
    return (
        f"The annual review of tax period {p.get('tax_period')} found "
        f"{words(p.get('finding'))} ({p.get('review')}){tail}."
    )


def _listing_withdrawn(p: Mapping[str, Any], n: Names) -> str:
    return "The seller withdrew the listing; its open offers lapse."


def _offer_accepted(p: Mapping[str, Any], n: Names) -> str:
    return "The seller accepted the offer; the transfer awaits the Authority's approval."


def _offer_declined(p: Mapping[str, Any], n: Names) -> str:
    return "The seller declined the offer."


SENTENCES: dict[str, Sentence] = {
    "PARTY_REGISTERED": _party_registered,
    "OWNERSHIP_RECORDED": _ownership,
    "OWNERS_AGREEMENT_FILED": _agreement,
    "CERT_ISSUED": _issued,
    "CAP_CHARGED": _cap_charged,
    "QUEUE_ALLOWED": _queue_allowed,
    "QUEUE_DEFERRED": _queue_deferred,
    "TECH_APPLICATION_RECEIVED": _tech_application,
    "FY_ALLOCATION_RUN": _allocation,
    "LISTING_CREATED": _listing,
    "LISTING_WITHDRAWN": _listing_withdrawn,
    "OFFER_MADE": _offer,
    "OFFER_ACCEPTED": _offer_accepted,
    "OFFER_DECLINED": _offer_declined,
    "TRANSFER_PROPOSED": _proposed,
    "TRANSFER_APPROVED": _approved,
    "TRANSFER_REJECTED": _rejected,
    "CREDIT_APPLIED": _applied,
    "CARRYFORWARD_EXPIRED": _expired,
    "PASS_THROUGH_ALLOCATED": _pass_through,
    "RECAPTURE_ASSESSED": _recapture,
    "UTH_REVIEW_RECORDED": _uth_review,
}


def type_in_words(event_type: str) -> str:
    return words(event_type).lower().capitalize()


def sentence(event_type: str, payload: Mapping[str, Any], names: Names) -> str:
    """The event in one sentence. A payload missing a field its sentence needs (an older
    event, another ruleset) reads as the type in words rather than failing the page."""
    build = SENTENCES.get(event_type)
    if build is not None:
        try:
            return build(payload, names)
        except (KeyError, TypeError, ValueError):
            pass
    return f"{type_in_words(event_type)}."


# The second release's event types, in a module of their own (it uses the helpers above).
from market.web.event_sentences_more import MORE  # noqa: E402

SENTENCES |= MORE
