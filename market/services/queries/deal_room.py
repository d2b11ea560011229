"""A transfer's deal room (issue 28): the deal in words, its certificate and parties, its
stages (who must act, since when), the actions the viewer may take, its exhibits and its
whole timeline, offer to receipt. One read transaction; the viewer must be a party to the
deal, the Authority or an auditor (anyone else gets the same 404 as an unknown id)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from market.adapters.repositories.casefiles import transfer_on_file
from market.domain.rules import adm_checklist
from market.domain.rulesets import get_ruleset
from market.services.casefiles import checklists, fees
from market.services.kernel import lookups
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.reads import repositories
from market.services.queries import deal_stages, deal_views, timelines
from market.services.trading import funding, trading

# What each side sees it may do at each stage that waits (the page renders the forms).
ACTIONS = {
    ("confirm", "buyer"): "confirm_or_decline",
    ("approval", "authority"): "approve_or_reject",
    ("payment", "buyer"): "record_payment",
    ("receipt", "seller"): "confirm_receipt",
    ("exhibits", "seller"): "file_exhibits",
}


def side_of(actor: Actor, transfer: dict[str, Any]) -> str | None:
    if actor.role == AUTHORITY:
        return "authority"
    if actor.party_id == transfer["buyer_party_id"]:
        return "buyer"
    if actor.party_id == transfer["seller_party_id"]:
        return "seller"
    return None  # an auditor, or the Authority's reader: sees, acts on nothing


def transfer_room(conn: Connection, actor: Actor, transfer_id: str) -> dict[str, Any]:
    found = trading.get_transfer(conn, actor, transfer_id)  # a stranger: NotFoundError
    t: dict[str, Any] = dict(found)
    repos = repositories(conn)
    offer = repos.offers.get(str(t["offer_id"])) if t.get("offer_id") else None
    line = timelines.deal_timeline(conn, t, str(offer["listing_id"]) if offer else None)
    items = checklists.transfer_items(conn, transfer_on_file(t), get_ruleset(str(t["ruleset"])))
    missing = [adm_checklist.words(k) for k in adm_checklist.missing(items, (adm_checklist.FINAL,))]
    closing = dict(funding.funding_view(conn, found))
    due = sum(int(f["due_cents"]) for f in fees.unpaid(conn, [transfer_id]))
    stages = deal_stages.transfer_stages(
        deal_stages.DealFacts(
            transfer=t,
            funding=closing,
            timeline=line,
            missing_exhibits=missing if t["status"] not in ("approved", "rejected") else [],
            fees_due_cents=due if t["status"] not in ("approved", "rejected") else 0,
            funding_before_approval=get_ruleset(str(t["ruleset"])).approval_requires_funding,
        )
    )
    waiting = deal_stages.waiting_on(stages)
    side = side_of(actor, t)
    action = ACTIONS.get((waiting.key, side or "")) if waiting is not None else None
    names = lookups.names_of(conn, [t["seller_party_id"], t["buyer_party_id"]])
    cert = repos.certificates.get(str(t["certificate_id"]))
    return {
        "transfer": t | {"checklist": [i.as_dict() for i in items]},
        "title": _title(t, names),
        "certificate": dict(cert) if cert else None,
        "buyer_certificate": _certificate(repos, t.get("buyer_certificate_id")),
        "offer": dict(offer) if offer else None,
        "names": names,
        "side": side,
        "stages": [s.as_dict() for s in stages],
        "waiting": waiting.as_dict() if waiting else None,
        "action": action,
        "funding": closing,
        "timeline": line,
        "next_step": _next_step(waiting, names, t),
        "reference": deal_views.reference_of(conn, f"transfer-{transfer_id}"),
    }


def _certificate(repos: Any, certificate_id: Any) -> dict[str, Any] | None:
    found = repos.certificates.get(str(certificate_id)) if certificate_id else None
    return dict(found) if found else None


def _title(t: dict[str, Any], names: dict[str, str]) -> str:
    seller = names.get(t["seller_party_id"], "The seller")
    buyer = names.get(t["buyer_party_id"], "the buyer")
    return f"{seller} sells credit to {buyer}"


def _next_step(waiting: deal_stages.Stage | None, names: dict[str, str], t: dict[str, Any]) -> str:
    """The waiting stage in words, naming who acts; none when the deal is done."""
    if waiting is None:
        if t["status"] in ("rejected", "declined"):
            return f"None: the transfer was {t['status']}; the seller keeps the credit."
        return "None: the deal is complete."
    who = {
        "buyer": names.get(t["buyer_party_id"], "The buyer"),
        "seller": names.get(t["seller_party_id"], "The seller"),
        "authority": "The Authority",
    }[waiting.who]
    step = waiting.title.removeprefix("The buyer ").removeprefix("The seller ")
    step = step.removeprefix("The Authority ")
    return f"{who} {step}." + (f" {waiting.detail}" if waiting.detail else "")
