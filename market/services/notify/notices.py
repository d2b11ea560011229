"""What each event type tells people: who is concerned, and the subject and body in words
and dollars. One entry per event class (`NOTICES`, with the deal's, the closing record's,
the counter-offer's and the case file's beside); the inbox, the e-mails and the webhooks'
party filter all read it, so a new event class is one entry.

Templates are `str.format_map` over the event's *facts*: its payload, plus for every
`x_cents` an `x_dollars`, for every `x_party_id` an `x_party` (the party's name), the
certificate's number, the transfer's or offer's parties and amounts when the payload
names one, and `reason` (a rejection's reasons in one sentence). A missing fact reads
"(unknown)" rather than failing the fan-out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from market.adapters.eventstore import Event
from market.adapters.repositories import notify_outbox as outbox
from market.domain.events import DomainEvent, by_type
from market.domain.events.certificates import CertificateIssued
from market.domain.events.deals import ReminderIssued
from market.domain.events.halts import CertificateNoticeIssued, CertificateNoticeLifted
from market.domain.events.returns import CarryforwardExpired, RecaptureAssessed
from market.domain.events.tech import FyAllocationRun, TechApplicationReceived, TechReceiptRecorded
from market.domain.events.trading import TransferProposed
from market.domain.values import format_cents
from market.services.kernel import lookups
from market.services.kernel.reads import Connection

AUTHORITY = "@authority"  # "concerned" marker: every Authority user

UNKNOWN = "(unknown)"


@dataclass(frozen=True)
class Facts:
    """An event's facts: its payload, completed from the projections with what a sentence
    needs (`facts` below). A template reads any fact by name (`str.format_map`), and a
    missing one reads "(unknown)"; the code reads them with `get`, as from the payload."""

    values: dict[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)

    def __getitem__(self, name: str) -> Any:
        return self.values.get(name, UNKNOWN)

    def with_values(self, more: dict[str, str]) -> Facts:
        """These facts and `more` (one recipient's own figures)."""
        return Facts(self.values | more)

    def party_ids(self) -> set[str]:
        """Every party the facts name: any `*party_id`, and the parties of `allocations`."""
        found = {v for k, v in self.values.items() if k.endswith("party_id") and isinstance(v, str)}
        rows = self.values.get("allocations")
        for a in rows if isinstance(rows, list) else []:
            if isinstance(a, dict) and isinstance(a.get("party_id"), str):
                found.add(a["party_id"])
        return found


Who = Callable[[Facts], Iterable[str | None]]


@dataclass(frozen=True)
class Notice:
    who: Who
    subject: str
    body: str
    link: str | None = None
    email: bool = False
    # Facts only one recipient party should read (its own allocation): (facts, party) -> more.
    personal: Callable[[Facts, str], dict[str, str]] | None = None


def keys(*names: str) -> Who:
    return lambda f: [f.get(n) for n in names]


def _allocated_to(f: Facts, party_id: str) -> dict[str, str]:
    mine = sum(
        int(a.get("allocated_cents") or 0)
        for a in f.get("allocations", [])
        if a.get("party_id") == party_id
    )
    return {"your_allocated_dollars": format_cents(mine)}


TRANSFER_LINK = "/deals/transfers/{transfer_id}"
OFFER_LINK = "/deals/offers/{offer_id}"

NOTICES: dict[type[DomainEvent], Notice] = {
    TechReceiptRecorded: Notice(
        keys("party_id"),
        "TECH application: paper filing received on {received_on}",
        "The Authority recorded that your TECH application was received on {received_on} "
        "({receipt_reason}).",
        "/deals/tech/{application_id}",
    ),
    CertificateNoticeIssued: Notice(
        lambda f: list(f.get("holder_party_ids", [])),
        "Trading halted: certificate {certificate_number}",
        "The Authority issued a {kind} notice on certificate {certificate_number}: {reason}. "
        "Trading in it and every certificate derived from it is halted until the notice is "
        "lifted.",
        "/certificates/{certificate_id}",
        email=True,
    ),
    CertificateNoticeLifted: Notice(
        lambda f: list(f.get("holder_party_ids", [])),
        "Trading resumed: certificate {certificate_number}",
        "The Authority lifted a notice on certificate {certificate_number}; trading resumes "
        "unless another notice still halts it.",
        "/certificates/{certificate_id}",
        email=True,
    ),
    FyAllocationRun: Notice(
        lambda f: [a.get("party_id") for a in f.get("allocations", [])],
        "TECH allocation committed for fiscal year {fiscal_year}",
        "The Authority committed the TECH allocation for fiscal year {fiscal_year}: "
        "{total_dollars} in all. Your allocation: {your_allocated_dollars}.",
        "/seller",
        email=True,
        personal=_allocated_to,
    ),
    RecaptureAssessed: Notice(
        keys("party_id"),
        "Recapture assessed: {amount_dollars}",
        "The Authority assessed a recapture of {amount_dollars} on {party}"
        " (certificate {certificate_number}). Reason: {reason}. It goes to the {fund}.",
        "/certificates/{certificate_id}",
        email=True,
    ),
    TechApplicationReceived: Notice(
        keys("party_id"),
        "TECH application received for fiscal year {fiscal_year}",
        "Your TECH application was received on {received_on}: benefit "
        "{benefit_dollars}, requested {requested_dollars}. Next: the fiscal year's allocation.",
        "/deals/tech/{application_id}",
    ),
    CarryforwardExpired: Notice(
        keys("party_id"),
        "Carryforward expired: {amount_dollars} of {certificate_number}",
        "{amount_dollars} of certificate {certificate_number} could not be used after tax "
        "year {carryover_last_year} and has expired.",
        "/certificates/{certificate_id}",
    ),
    CertificateIssued: Notice(
        lambda f: [f.get("holder_party_id")] if f.get("origin") != "transfer" else [],
        "Certificate issued: {certificate_number}",
        "Certificate {certificate_number} ({program}, fiscal year {fiscal_year}) was issued "
        "to {holder_party} for {face_dollars}.",
        "/certificates/{certificate_id}",
    ),
    ReminderIssued: Notice(
        lambda f: list(f.get("party_ids", [])),
        "{subject}",
        "{body}",
        "{link}",
        email=True,
    ),
}


def facts(conn: Connection, event: Event, *, in_words: bool = True) -> Facts:
    """The payload, completed from the projections with what a sentence needs (without
    `in_words`, only the parties: what the webhooks' filter reads)."""
    f: dict[str, Any] = {}
    p = event.facts()
    # What the payload names, joined first, so the payload's own values win.
    offer = outbox.offer_row(conn, p.get("offer_id"))
    transfer = outbox.transfer_row(conn, p.get("transfer_id") or offer.get("transfer_id"))
    for source in (offer, transfer):
        f |= {k: v for k, v in source.items() if k != "id" and k != "status"}
    f |= p
    if not in_words:
        return Facts(f)
    cert = outbox.certificate_row(conn, f.get("certificate_id"))
    f.setdefault("certificate_number", cert.get("number") or f.get("number"))
    if event.type == CertificateIssued.TYPE:
        f["certificate_number"] = p.get("number")
    # Issue 28 item 3: a counter (or an offer) that expires says until when.
    f["until"] = f", open through {p['expires_on']}" if p.get("expires_on") else ""
    if event.type == TransferProposed.TYPE:  # a negotiated one waits for the buyer (8.2)
        f["next_step"] = (
            "the buyer's confirmation, then the Authority's approval."
            if p.get("awaiting_buyer")
            else "the Authority's approval."
        )
    reasons = f.get("reasons") or ([p["reason"]] if p.get("reason") else [])
    f["reason"] = "; ".join(str(r) for r in reasons) or "none given"
    party_keys = [k for k in f if k.endswith("party_id") and isinstance(f[k], str)]
    names = lookups.names_of(conn, {f[k] for k in party_keys})
    for k in party_keys:
        f[k[: -len("_id")]] = names.get(f[k], f[k])
    for k, v in list(f.items()):
        if k.endswith("_cents") and isinstance(v, int):
            f[k[: -len("_cents")] + "_dollars"] = format_cents(v)
    f["fund"] = str(f.get("fund", "")).replace("_", " ")
    return Facts(f)


def concerned_parties(event: Event, f: Facts) -> set[str]:
    """The parties an event is about: the mapping's, and any party it names (the
    webhooks' filter for a participant's subscription)."""
    found = f.party_ids()
    notice = notice_of(event.type)
    if notice is not None:
        found |= {w for w in notice.who(f) if w and w != AUTHORITY}
    return found


def render(notice: Notice, f: Facts, party_id: str | None) -> tuple[str, str, str | None]:
    ctx = f
    if notice.personal is not None and party_id is not None:
        ctx = f.with_values(notice.personal(f, party_id))
    link = notice.link.format_map(ctx) if notice.link else None
    return notice.subject.format_map(ctx)[:300], notice.body.format_map(ctx)[:4000], link


def notice_of(event_type: str) -> Notice | None:
    """The notice for a stored event's type (None for a type nobody is told of)."""
    return BY_TYPE.get(event_type)


def words(event_type: str) -> str:
    """An event type in words, for types the timelines and inbox know nothing about."""
    return event_type.replace("_", " ").lower()


# The case file's notices (RULES.md section 7) and the closing record's, kept beside.
from market.services.notify.casefile_notices import CASEFILE_NOTICES  # noqa: E402
from market.services.notify.closing_notices import CLOSING_NOTICES  # noqa: E402
from market.services.notify.counter_notices import COUNTER_NOTICES  # noqa: E402
from market.services.notify.deal_notices import DEAL_NOTICES  # noqa: E402

NOTICES.update(DEAL_NOTICES)
NOTICES.update(CASEFILE_NOTICES)
NOTICES.update(CLOSING_NOTICES)
NOTICES.update(COUNTER_NOTICES)
BY_TYPE = by_type(NOTICES)
