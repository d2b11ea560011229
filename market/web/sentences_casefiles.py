"""Event sentences for the case file (RULES.md section 7): exhibits, fees, tax clearance
certificates and a TECH application's administrative steps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.web.event_words import Names, dollars, name_of, words


def document(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"An exhibit was filed against {words(p.get('subject_type'))} "
        f"{name_of(n, 'subject_id', p)}: {words(p.get('kind'))}, version {p.get('version')} "
        f"({p.get('media_type')}, {p.get('bytes')} bytes, SHA-256 {str(p.get('sha256'))[:16]}…)."
    )


def fee(p: Mapping[str, Any], n: Names) -> str:
    credited = int(p.get("credited_cents") or 0)
    return (
        f"The Authority invoiced {name_of(n, 'party_id', p)} a {words(p.get('kind'))} fee of "
        f"{dollars(p.get('amount_cents'))}"
        + (f", {dollars(credited)} of it credited" if credited else "")
        + "."
    )


def fee_paid(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Authority recorded a payment of {dollars(p.get('amount_cents'))} by "
        f"{p.get('method')} ({p.get('reference')}), received {p.get('received_on')}."
    )


def clearance(p: Mapping[str, Any], n: Names) -> str:
    renewal = " (a renewal)" if p.get("renews") else ""
    return (
        f"Tax clearance certificate {p.get('certificate_number')}{renewal} of "
        f"{name_of(n, 'party_id', p)} for {p.get('program')}, issued {p.get('issued_on')}, "
        f"valid until {p.get('valid_until')}."
    )


def submitted(p: Mapping[str, Any], n: Names) -> str:
    return f"The seller submitted the TECH application with its package on {p['submitted_on']}."


def preliminary(p: Mapping[str, Any], n: Names) -> str:
    conditions = list(p.get("conditions") or [])
    listed = "; ".join(str(c) for c in conditions) if conditions else "no conditions"
    return f"The Authority granted preliminary approval with {listed}."


def forwarded(p: Mapping[str, Any], n: Names) -> str:
    day = p["forwarded_on"]
    return f"The Authority forwarded the application to the Division of Taxation on {day}."


def valued(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Division of Taxation valued the benefit at {dollars(p.get('benefit_cents'))} "
        f"(tax certificate {p.get('certificate_number')}, {p.get('issued_on')})."
    )


def board_action(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Board voted to {p.get('decision')} the BRRAG application of "
        f"{name_of(n, 'party_id', p)} ({dollars(p.get('amount_cents'))}); the Governor received "
        f"the minutes on {p.get('governor_received_on')}, so it takes effect on "
        f"{p.get('effective_on')} unless vetoed."
    )


def governor(p: Mapping[str, Any], n: Names) -> str:
    verb = "approved early" if p.get("decision") == "approve" else "vetoed"
    return f"The Governor {verb} the Board's action on {p.get('decided_on')}."
