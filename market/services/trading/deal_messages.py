"""Messages between a transfer's two parties in its deal room (issue 28): either party
writes to the other; both, the Authority and auditors read them. Each is a ledger event
(DEAL_MESSAGE_POSTED on `deal-messages-<transfer id>`), so what was said is kept as
everything else is, and the other party hears of it in its inbox."""

from __future__ import annotations

from typing import TypedDict

from market.adapters.eventstore import stream_events
from market.domain.errors import InvalidRequestError
from market.domain.events.deals import DealMessagePosted
from market.domain.names import INVISIBLE
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.errors import ForbiddenError
from market.services.kernel.reads import Connection
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.trading.trade_views import load_transfer_for

MAX_MESSAGE = 2000


class PostedMessage(TypedDict):
    transfer_id: str
    from_party_id: str
    to_party_id: str


class DealMessage(TypedDict):
    from_party_id: str
    body: str
    at: str  # when the ledger recorded it
    seq: int


def stream_of(transfer_id: str) -> str:
    return f"deal-messages-{transfer_id}"


def post_message(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, body: str
) -> PostedMessage:
    t = load_transfer_for(uow, actor, transfer_id)  # a stranger: as if it did not exist
    if actor.role != PARTICIPANT or actor.party_id is None:
        raise ForbiddenError("Only the deal's two parties write in it.", {})
    actor.require_writer()
    text = (body or "").strip()
    if not 1 <= len(text) <= MAX_MESSAGE:
        raise InvalidRequestError(
            f"A message is 1 to {MAX_MESSAGE} characters.", {"length": len(text)}
        )
    hidden = INVISIBLE.search(text)
    if hidden is not None:
        raise InvalidRequestError(
            "A message may not contain invisible or direction-changing characters "
            f"(U+{ord(hidden.group()):04X} at position {hidden.start() + 1}).",
            {"body": "invisible_characters"},
        )
    mine = actor.party_id
    other = t.buyer_party_id if mine == t.seller_party_id else t.seller_party_id
    uow.append(
        stream_of(transfer_id),
        DealMessagePosted(
            transfer_id=transfer_id, from_party_id=mine, to_party_id=other, body=text
        ),
        actor.label,
    )
    return {"transfer_id": transfer_id, "from_party_id": mine, "to_party_id": other}


def messages(conn: Connection, transfer_id: str) -> list[DealMessage]:
    """The deal's messages, oldest first (the caller has checked who may read them)."""
    out: list[DealMessage] = []
    for e in stream_events(conn, stream_of(transfer_id)):
        facts = e.facts()
        out.append(
            {
                "from_party_id": facts["from_party_id"],
                "body": facts["body"],
                "at": e.recorded_at,
                "seq": e.seq,
            }
        )
    return out
