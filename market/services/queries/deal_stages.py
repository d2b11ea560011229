"""A transfer's stages, in the order the deal goes through them: who must act at each, what
is done (when, by whom) and what waits (since when). Read by the deal room page.

Built from the transfer, its exhibits checklist, the fees owed on it and its timeline
(which holds its closing record: payment, receipt); no reads of its own, so it answers the
same for any source of those facts."""

from __future__ import annotations

from dataclasses import dataclass, field

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
from market.domain.model import Transfer, TransferStatus
from market.domain.values import format_cents
from market.services.queries.timelines import TimelineStep

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


@dataclass(frozen=True)
class DealFacts:
    transfer: Transfer
    timeline: list[TimelineStep]
    missing_exhibits: list[str]  # in words
    fees_due_cents: int
    funding_before_approval: bool


@dataclass(frozen=True)
class StageSpec:
    """A stage to place: its key, title and who acts, and the timeline step that did it
    (None: not done; True: done by a fact with no event of the deal's own)."""

    key: str
    title: str
    who: str
    done: TimelineStep | bool | None = None
    detail: str | None = None


@dataclass
class StageList:
    """The stages placed so far; `ended`: the deal was rejected or declined."""

    ended: bool
    stages: list[Stage] = field(default_factory=list)

    def add(self, spec: StageSpec) -> None:
        """Done if its event is in the timeline (or `done` is True); else the first stage
        not done waits, since the last done stage's instant; the stages after it come
        later; an ended deal waits for nothing."""
        key, title, who, done, detail = spec.key, spec.title, spec.who, spec.done, spec.detail
        if done is True:
            self.stages.append(Stage(key, title, who, DONE, detail=detail))
        elif done is not None and done is not False:
            self.stages.append(Stage(key, title, who, DONE, done["at"], done["by"], detail=detail))
        elif self.ended:
            self.stages.append(Stage(key, title, who, CLOSED, detail=detail))
        else:
            waiting = all(s.state == DONE for s in self.stages)
            since = next((s.at for s in reversed(self.stages) if s.at), None) if waiting else None
            state = WAITING if waiting else LATER
            self.stages.append(Stage(key, title, who, state, since=since, detail=detail))

    def close(self, key: str, title: str, who: str, step: TimelineStep) -> None:
        """A stage that ended the deal (the buyer declined, the Authority rejected)."""
        reason = step.get("reason")
        self.stages.append(Stage(key, title, who, CLOSED, step["at"], step["by"], detail=reason))


def transfer_stages(facts: DealFacts) -> list[Stage]:
    ended = facts.transfer.status in (TransferStatus.REJECTED, TransferStatus.DECLINED)
    placed = StageList(ended)
    if facts.transfer.offer_id:
        _offer_stages(placed, facts.timeline)
    else:
        _proposal_stages(placed, facts.timeline)
    _filing_stages(placed, facts)
    _closing_stages(placed, facts)
    return placed.stages


def _offer_stages(placed: StageList, line: list[TimelineStep]) -> None:
    placed.add(StageSpec("offer", "The buyer makes an offer", "buyer", _first(line, OfferMade)))
    countered = _first(line, OfferCountered)
    if countered is None:
        accepted = _first(line, OfferAccepted)
        placed.add(StageSpec("accept", "The seller accepts the offer", "seller", accepted))
        return
    # issue 28.3: the seller answered with its own terms; the buyer took them
    placed.add(StageSpec("counter", "The seller counters the offer", "seller", countered))
    accepted = _first(line, CounterOfferAccepted)
    placed.add(StageSpec("accept", "The buyer accepts the counter-offer", "buyer", accepted))


def _proposal_stages(placed: StageList, line: list[TimelineStep]) -> None:
    proposed = line[0] if line else None
    placed.add(StageSpec("propose", "The seller proposes the transfer", "seller", proposed))
    if proposed is None or proposed["status"] != "awaiting_buyer":  # PRODUCT.md 8.2
        return
    declined = _first(line, TransferDeclined)
    if declined is not None:
        placed.close("confirm", "The buyer declined the transfer", "buyer", declined)
        return
    confirmed = _first(line, TransferConfirmed)
    placed.add(StageSpec("confirm", "The buyer confirms the transfer", "buyer", confirmed))


def _filing_stages(placed: StageList, facts: DealFacts) -> None:
    if facts.missing_exhibits:
        missing = ", ".join(facts.missing_exhibits)
        title = "The seller files the exhibits for final approval"
        placed.add(StageSpec("exhibits", title, "seller", False, f"Missing: {missing}."))
    if facts.fees_due_cents:
        due = f"{format_cents(facts.fees_due_cents)} is due."
        placed.add(StageSpec("fees", "The seller pays the fees due", "seller", False, due))


def _closing_stages(placed: StageList, facts: DealFacts) -> None:
    line = facts.timeline
    funding = [
        StageSpec(
            "payment",
            "The buyer records its payment",
            "buyer",
            _first(line, TransferPaymentRecorded),
        ),
        StageSpec(
            "receipt",
            "The seller confirms receipt of the payment",
            "seller",
            _first(line, TransferReceiptConfirmed),
        ),
    ]
    approval = StageSpec(
        "approval",
        "The Authority approves the transfer",
        "authority",
        _first(line, TransferApproved),
    )
    order = [*funding, approval] if facts.funding_before_approval else [approval, *funding]
    rejected = _first(line, TransferRejected)
    for spec in order:
        if spec.key == "approval" and rejected is not None:
            placed.close(spec.key, "The Authority rejected the transfer", spec.who, rejected)
        else:
            placed.add(spec)


def _first(timeline: list[TimelineStep], event: type[DomainEvent]) -> TimelineStep | None:
    """The first step of the timeline that an event of the class `event` made."""
    return next((s for s in timeline if s["event"] == event.TYPE), None)


def waiting_on(stages: list[Stage]) -> Stage | None:
    return next((s for s in stages if s.state == WAITING), None)
