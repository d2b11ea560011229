"""A transfer's stages, in the order the deal goes through them: who must act at each, what
is done (when, by whom) and what waits (since when). Read by the deal room page.

Built from the transfer's row, its closing record (funding), its exhibits checklist, the
fees owed on it and its timeline; no reads of its own, so it answers the same for any
source of those facts."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from market.domain.events import DomainEvent
from market.domain.events.funding import TransferPaymentRecorded, TransferReceiptConfirmed
from market.domain.events.trading import (
    CounterOfferAccepted,
    OfferAccepted,
    OfferCountered,
    OfferMade,
    TransferApproved,
    TransferConfirmed,
    TransferDeclined,
    TransferRejected,
)
from market.domain.values import format_cents

DONE, WAITING, LATER, CLOSED = "done", "waiting", "later", "closed"


@dataclass(frozen=True)
class Stage:
    key: str
    title: str
    who: str  # who acts: "seller", "buyer", "authority"
    state: str  # done | waiting | later | closed
    at: str | None = None  # when it was done (ISO instant)
    by: str | None = None  # who did it, in words
    since: str | None = None  # when it began to wait (ISO instant)
    detail: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class DealFacts:
    transfer: dict[str, Any]
    funding: dict[str, Any]
    timeline: list[dict[str, Any]]
    missing_exhibits: list[str]  # in words
    fees_due_cents: int
    funding_before_approval: bool


def transfer_stages(facts: DealFacts) -> list[Stage]:
    t, line = facts.transfer, facts.timeline
    status = str(t["status"])
    ended = status in ("rejected", "declined")
    stages: list[Stage] = []

    def add(key: str, title: str, who: str, done: dict[str, Any] | bool | None, **kw: Any) -> None:
        """Done if its event is in the timeline (or `done` is True: a fact with no event of
        the deal's own); else the first stage not done waits, since the last done stage's
        instant; the stages after it come later; an ended deal waits for nothing."""
        if isinstance(done, dict):
            stages.append(Stage(key, title, who, DONE, at=done["at"], by=done["by"], **kw))
            return
        if done:
            stages.append(Stage(key, title, who, DONE, **kw))
            return
        if ended:
            stages.append(Stage(key, title, who, CLOSED, **kw))
            return
        waiting = all(s.state == DONE for s in stages)
        since = next((s.at for s in reversed(stages) if s.at), None) if waiting else None
        stages.append(Stage(key, title, who, WAITING if waiting else LATER, since=since, **kw))

    if t.get("offer_id"):
        add("offer", "The buyer makes an offer", "buyer", _first(line, OfferMade))
        countered = _first(line, OfferCountered)
        if countered is None:
            add("accept", "The seller accepts the offer", "seller", _first(line, OfferAccepted))
        else:  # issue 28.3: the seller answered with its own terms; the buyer took them
            add("counter", "The seller counters the offer", "seller", countered)
            accepted = _first(line, CounterOfferAccepted)
            add("accept", "The buyer accepts the counter-offer", "buyer", accepted)
    else:
        add("propose", "The seller proposes the transfer", "seller", line[0] if line else None)
        if line and line[0]["status"] == "awaiting_buyer":  # PRODUCT.md 8.2
            declined = _first(line, TransferDeclined)
            if declined is not None:
                stages.append(
                    Stage(
                        "confirm",
                        "The buyer declined the transfer",
                        "buyer",
                        CLOSED,
                        at=declined["at"],
                        by=declined["by"],
                        detail=declined.get("reason"),
                    )
                )
            else:
                confirmed = _first(line, TransferConfirmed)
                add("confirm", "The buyer confirms the transfer", "buyer", confirmed)
    if facts.missing_exhibits:
        missing = ", ".join(facts.missing_exhibits)
        add(
            "exhibits",
            "The seller files the exhibits for final approval",
            "seller",
            False,
            detail=f"Missing: {missing}.",
        )
    if facts.fees_due_cents:
        add(
            "fees",
            "The seller pays the fees due",
            "seller",
            False,
            detail=f"{format_cents(facts.fees_due_cents)} is due.",
        )
    funding: list[tuple[str, str, str, dict[str, Any] | None]] = [
        (
            "payment",
            "The buyer records its payment",
            "buyer",
            _first(line, TransferPaymentRecorded),
        ),
        (
            "receipt",
            "The seller confirms receipt of the payment",
            "seller",
            _first(line, TransferReceiptConfirmed),
        ),
    ]
    approval = (
        "approval",
        "The Authority approves the transfer",
        "authority",
        _first(line, TransferApproved),
    )
    order = [*funding, approval] if facts.funding_before_approval else [approval, *funding]
    for key, title, who, done in order:
        rejected = _first(line, TransferRejected)
        if key == "approval" and rejected is not None:
            stages.append(
                Stage(
                    key,
                    "The Authority rejected the transfer",
                    who,
                    CLOSED,
                    at=rejected["at"],
                    by=rejected["by"],
                    detail=rejected.get("reason"),
                )
            )
            continue
        add(key, title, who, done)
    return stages


def _first(timeline: list[dict[str, Any]], event: type[DomainEvent]) -> dict[str, Any] | None:
    """The first step of the timeline that an event of the class `event` made."""
    return next((s for s in timeline if s["event"] == event.TYPE), None)


def waiting_on(stages: list[Stage]) -> Stage | None:
    return next((s for s in stages if s.state == WAITING), None)
