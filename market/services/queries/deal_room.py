"""A transfer's deal room (issue 28): the deal in words, its certificate and parties, its
stages (who must act, since when), the actions the viewer may take, its exhibits and its
whole timeline, offer to receipt. One read transaction; the viewer must be a party to the
deal, the Authority or an auditor (anyone else gets the same 404 as an unknown id)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from market.adapters.repositories.casefiles import transfer_on_file
from market.adapters.repositories.models import certificate_of, offer_of, transfer_of
from market.domain.model import Certificate, Offer, Transfer, TransferStatus
from market.domain.rules import adm_checklist
from market.domain.rules.adm_checklist import ChecklistItem
from market.domain.rulesets import get_ruleset
from market.services.casefiles import checklists, fees
from market.services.kernel import lookups
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.reads import repositories
from market.services.queries import deal_stages, deal_views, timelines
from market.services.queries.deal_stages import Stage
from market.services.queries.timelines import TimelineStep
from market.services.trading import funding, trading

# What each side sees it may do at each stage that waits (the page renders the forms).
ACTIONS = {
    ("confirm", "buyer"): "confirm_or_decline",
    ("approval", "authority"): "approve_or_reject",
    ("payment", "buyer"): "record_payment",
    ("receipt", "seller"): "confirm_receipt",
    ("exhibits", "seller"): "file_exhibits",
}


DECIDED = (TransferStatus.APPROVED, TransferStatus.REJECTED)


@dataclass(frozen=True)
class DealRoom:
    """The deal room page's view: the transfer, its program and exhibits checklist;
    `funding` is trading's view of its closing record; `messages` the page adds."""

    transfer: Transfer
    program: str
    checklist: list[ChecklistItem]
    title: str
    certificate: Certificate | None
    buyer_certificate: Certificate | None
    offer: Offer | None
    names: dict[str, str]
    side: str | None
    stages: list[Stage]
    waiting: Stage | None
    action: str | None
    funding: dict[str, Any]
    timeline: list[TimelineStep]
    next_step: str
    reference: str | None
    messages: tuple[Any, ...] = ()


def side_of(actor: Actor, transfer: Transfer) -> str | None:
    if actor.role == AUTHORITY:
        return "authority"
    if actor.party_id == transfer.buyer_party_id:
        return "buyer"
    if actor.party_id == transfer.seller_party_id:
        return "seller"
    return None  # an auditor, or the Authority's reader: sees, acts on nothing


def transfer_room(conn: Connection, actor: Actor, transfer_id: str) -> DealRoom:
    view = trading.get_transfer(conn, actor, transfer_id)  # a stranger: NotFoundError
    t = transfer_of(view)
    repos = repositories(conn)
    found = repos.offers.get(t.offer_id) if t.offer_id else None
    offer = offer_of(found) if found else None
    line = timelines.deal_timeline(conn, t.id, t.offer_id, offer.listing_id if offer else None)
    ruleset = get_ruleset(str(view["ruleset"]))
    items = checklists.transfer_items(conn, transfer_on_file(view), ruleset)
    stages = deal_stages.transfer_stages(
        deal_stages.DealFacts(
            transfer=t,
            timeline=line,
            missing_exhibits=[] if t.status in DECIDED else _missing(items),
            fees_due_cents=0 if t.status in DECIDED else fees_due(conn, transfer_id),
            funding_before_approval=ruleset.approval_requires_funding,
        )
    )
    waiting = deal_stages.waiting_on(stages)
    side = side_of(actor, t)
    names = lookups.names_of(conn, [t.seller_party_id, t.buyer_party_id])
    return DealRoom(
        transfer=t,
        program=str(view["program"]),
        checklist=items,
        title=_title(t, names),
        certificate=_certificate(conn, t.certificate_id),
        buyer_certificate=_certificate(conn, view.get("buyer_certificate_id")),
        offer=offer,
        names=names,
        side=side,
        stages=stages,
        waiting=waiting,
        action=ACTIONS.get((waiting.key, side or "")) if waiting is not None else None,
        funding=dict(funding.funding_view(conn, view)),
        timeline=line,
        next_step=_next_step(waiting, names, t),
        reference=deal_views.reference_of(conn, f"transfer-{transfer_id}"),
    )


def _missing(items: list[ChecklistItem]) -> list[str]:
    """The exhibits final approval still needs, in words."""
    return [adm_checklist.words(k) for k in adm_checklist.missing(items, (adm_checklist.FINAL,))]


def fees_due(conn: Connection, transfer_id: str) -> int:
    """What the transfer's unpaid fees leave due, in cents."""
    due: int = sum(fee["due_cents"] for fee in fees.unpaid(conn, [transfer_id]))
    return due


def _certificate(conn: Connection, certificate_id: str | None) -> Certificate | None:
    found = repositories(conn).certificates.get(certificate_id) if certificate_id else None
    return certificate_of(found) if found else None


def _title(t: Transfer, names: dict[str, str]) -> str:
    seller = names.get(t.seller_party_id, "The seller")
    buyer = names.get(t.buyer_party_id, "the buyer")
    return f"{seller} sells credit to {buyer}"


def _next_step(waiting: Stage | None, names: dict[str, str], t: Transfer) -> str:
    """The waiting stage in words, naming who acts; none when the deal is done."""
    if waiting is None:
        if t.status in (TransferStatus.REJECTED, TransferStatus.DECLINED):
            return f"None: the transfer was {t.status.value}; the seller keeps the credit."
        return "None: the deal is complete."
    who = {
        "buyer": names.get(t.buyer_party_id, "The buyer"),
        "seller": names.get(t.seller_party_id, "The seller"),
        "authority": "The Authority",
    }[waiting.who]
    step = waiting.title.removeprefix("The buyer ").removeprefix("The seller ")
    step = step.removeprefix("The Authority ")
    return f"{who} {step}." + (f" {waiting.detail}" if waiting.detail else "")
