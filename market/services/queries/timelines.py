"""A deal's life from its events: `[{status, at, by, reason?, event, seq}]`, oldest first.

Built generically from the events of the entity's stream (an offer's are the listing's
events naming it, then its transfer's; a TECH application's, its own stream and the
fiscal year's allocation naming it; a credit application's, the event that made it). An
event type this module does not know still shows, as its type in words, so what other
areas add (a buyer's confirmation, a trading halt) appears without a change here.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import Event, event_from_row, events_t
from market.adapters.tables import User
from market.domain.events import DomainEvent, by_type
from market.domain.events.casefiles import (
    TechApplicationSubmitted,
    TechForwardedToTaxation,
    TechPreliminaryApproved,
    TechTaxCertificateRecorded,
)
from market.domain.events.funding import (
    TransferPaymentRecorded,
    TransferReceiptConfirmed,
    TransferRefundOwed,
)
from market.domain.events.returns import CreditApplied
from market.domain.events.tech import FyAllocationRun, TechApplicationReceived
from market.domain.events.trading import (
    CounterOfferAccepted,
    CounterOfferDeclined,
    OfferAccepted,
    OfferCountered,
    OfferDeclined,
    OfferMade,
    TransferApproved,
    TransferConfirmed,
    TransferDeclined,
    TransferProposed,
    TransferRejected,
)
from market.services.kernel import lookups
from market.services.notify import notices

users_t = User.__table__  # type: ignore[attr-defined]

# The status each event class leads a deal to.
STATUS: dict[type[DomainEvent], str] = {
    OfferMade: "open",
    OfferAccepted: "accepted",
    OfferDeclined: "declined",
    OfferCountered: "countered",
    CounterOfferAccepted: "accepted",
    CounterOfferDeclined: "declined",
    TransferProposed: "pending_approval",
    TransferConfirmed: "pending_approval",
    TransferDeclined: "declined",
    TransferApproved: "approved",
    TransferRejected: "rejected",
    TechApplicationReceived: "received",
    FyAllocationRun: "allocated",
    CreditApplied: "applied",
    # RULES.md section 7: a TECH application's administrative steps
    TechApplicationSubmitted: "submitted",
    TechPreliminaryApproved: "preliminarily_approved",
    TechForwardedToTaxation: "forwarded_to_taxation",
    TechTaxCertificateRecorded: "valued",
    # PRODUCT.md 8.3: the closing record, on the stream funding-<transfer id>
    TransferPaymentRecorded: "paid",
    TransferReceiptConfirmed: "payment_received",
    TransferRefundOwed: "refund_owed",
}
_STATUS_BY_TYPE = by_type(STATUS)

# The next step once a deal is in a status (what the pages and the public status say).
NEXT_STEP = {
    "open": "The seller accepts, counters or declines the offer.",
    "accepted": "The Authority approves or rejects the transfer.",
    "countered": "The buyer accepts or declines the seller's counter-offer.",
    "expired": "None: the offer lapsed unanswered; the buyer may offer again.",
    "declined": "None: the deal is closed.",
    "awaiting_buyer": "The buyer confirms the transfer; then the Authority decides.",
    "pending_approval": "The Authority approves or rejects the transfer.",
    "approved": "The buyer holds the credit; it records its payment, then the seller "
    "confirms receipt.",
    "paid": "The seller confirms receipt of the payment.",
    "payment_received": "None: the credit is the buyer's and the price is paid.",
    "refund_owed": "The seller refunds the buyer the payment it received.",
    "rejected": "None: the transfer is closed; the seller keeps the credit and may sell again.",
    "received": "The Authority runs the fiscal year's allocation after the June 30 deadline.",
    "allocated": "None: a certificate for the allocated benefit is held by the seller.",
    "applied": "None: the credit is on the return; what was not used carries forward.",
    "submitted": "The Authority reviews it and grants preliminary approval with conditions.",
    "preliminarily_approved": "The seller files the exhibits Taxation needs; the Authority "
    "forwards it.",
    "forwarded_to_taxation": "The Division of Taxation values the benefit.",
    "valued": "Final approval at closing: the sale's transfer is approved by the Authority.",
}


class TimelineStep(TypedDict):
    """One step of a deal's life, as the API and the pages show it (the JSON body's own
    shape: `reason` is there only when the event gave one)."""

    status: str
    at: str
    by: str
    event: str
    seq: int
    reason: NotRequired[str]


def status_of(event: Event) -> str:
    """The status an event names in its payload (a proposal that waits for the buyer says
    `awaiting_buyer`), else the one its type leads to, else its type in words."""
    facts = event.facts()
    status = facts.get("status")
    if isinstance(status, str):
        return status
    if event.type == TransferProposed.TYPE and facts.get("awaiting_buyer"):
        return "awaiting_buyer"
    return _STATUS_BY_TYPE.get(event.type) or notices.words(event.type)


def _stream(conn: Connection, stream: str) -> list[Event]:
    rows = conn.execute(select(events_t).where(events_t.c.stream == stream).order_by("seq"))
    return [event_from_row(r) for r in rows]


def _who(conn: Connection, events: list[Event]) -> dict[str, str]:
    """Actor label -> who, in words: the Authority, an auditor, or the party acted for."""
    labels = {e.actor for e in events}
    ids = {lab.split(":", 1)[1].split("@", 1)[0] for lab in labels if lab.startswith("user:")}
    users = (
        {
            r.id: (r.role, r.party_id)
            for r in conn.execute(
                select(users_t.c.id, users_t.c.role, users_t.c.party_id).where(
                    users_t.c.id.in_(ids)
                )
            )
        }
        if ids
        else {}
    )
    acted_for = {
        lab.partition(":")[2].partition("@")[2] or users.get(lab.partition(":")[2], ("", None))[1]
        for lab in labels
    }
    # The names of the parties acted for only (it read every party's, for every deal).
    names = lookups.names_of(conn, acted_for)
    out: dict[str, str] = {}
    for lab in labels:
        user_id, _, party = lab.partition(":")[2].partition("@")
        role, own_party = users.get(user_id, ("system", None))
        if role == "authority":
            out[lab] = "the Authority"
        elif role == "participant":
            acted = party or own_party
            out[lab] = names.get(acted or "", acted or "a participant")
        elif role == "auditor":
            out[lab] = "an auditor"
        else:
            out[lab] = "the system"
    return out


def build(conn: Connection, events: list[Event]) -> list[TimelineStep]:
    who = _who(conn, events)
    out = []
    for e in events:
        entry: TimelineStep = {
            "status": status_of(e),
            "at": e.recorded_at,
            "by": who[e.actor],
            "event": e.type,
            "seq": e.seq,
        }
        facts = e.facts()
        reasons = facts.get("reasons") if e.type.endswith(("REJECTED", "DECLINED")) else None
        reason = "; ".join(map(str, reasons)) if reasons else facts.get("reason")
        if reason:
            entry["reason"] = str(reason)
        out.append(entry)
    return out


def transfer_events(conn: Connection, transfer_id: str) -> list[Event]:
    return _stream(conn, f"transfer-{transfer_id}")


def transfer_timeline(conn: Connection, transfer_id: str) -> list[TimelineStep]:
    return build(conn, transfer_events(conn, transfer_id))


def deal_timeline(
    conn: Connection, transfer_id: str, offer_id: str | None, listing_id: str | None
) -> list[TimelineStep]:
    """A transfer's whole life: the offer it came from (the events of `listing_id` naming
    the offer), its own events and its closing record (payment, receipt, refund), in
    ledger order."""
    own = transfer_events(conn, transfer_id)
    if listing_id and offer_id:
        own += [
            e
            for e in _stream(conn, f"listing-{listing_id}")
            if e.facts().get("offer_id") == offer_id
        ]
    own += _stream(conn, f"funding-{transfer_id}")
    return build(conn, sorted(own, key=lambda e: e.seq))


def offer_timeline(
    conn: Connection, offer_id: str, listing_id: str, transfer_id: str | None
) -> list[TimelineStep]:
    own = [
        e for e in _stream(conn, f"listing-{listing_id}") if e.facts().get("offer_id") == offer_id
    ]
    if transfer_id:
        own += transfer_events(conn, transfer_id)
    return build(conn, own)


def tech_timeline(conn: Connection, application_id: str, fiscal_year: int) -> list[TimelineStep]:
    own = _stream(conn, f"tech-{application_id}")
    for e in _stream(conn, f"tech-fy-{fiscal_year}"):
        facts = e.facts()
        named = [a.get("application_id") for a in facts.get("allocations", [])]
        if application_id in named + list(facts.get("excluded_application_ids", [])):
            own.append(e)
    return build(conn, own)


def credit_timeline(
    conn: Connection, application_id: str, certificate_id: str
) -> list[TimelineStep]:
    own = [
        e
        for e in _stream(conn, f"certificate-{certificate_id}")
        if e.facts().get("application_id") == application_id
    ]
    return build(conn, own)


def next_step(timeline: list[TimelineStep]) -> str:
    if not timeline:
        return ""
    return NEXT_STEP.get(timeline[-1]["status"], "See the latest step above.")
