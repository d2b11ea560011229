"""The Authority's decision on a transfer: approve or reject. Approval re-checks every rule
inside the unit of work that appends it, holding the ledger head (every writer takes it
first: one writer at a time), so two approvals can never spend the same cents.
"""

from __future__ import annotations

from datetime import date

from market.domain.commands.trading import ApproveTransfer
from market.domain.deciders.transfers import decide_approval, decide_rejection
from market.domain.model import TransferStatus
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.trading import funding
from market.services.trading.approval_facts import approval_facts, undecided
from market.services.trading.trade_views import TransferView, held_transfer_view


def approve_transfer(
    uow: AbstractUnitOfWork,
    actor: Actor,
    transfer_id: str,
    ruleset: Ruleset,
    exchange_on: date | None = None,
) -> TransferView:
    """Re-check every rule on the current state; refuse (writing nothing) or approve.
    Load (under the ledger head), decide purely, append."""
    actor.require(AUTHORITY)
    command = ApproveTransfer(transfer_id, exchange_on)
    facts = approval_facts(uow, command, ruleset)
    for append in decide_approval(command, facts, ruleset):
        uow.append(append.stream, append.event, actor.label, new_stream=append.new_stream)
    return held_transfer_view(uow, transfer_id)


def reject_transfer(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, reason: str
) -> TransferView:
    """The Authority refuses a transfer, before or after the buyer's confirmation."""
    actor.require(AUTHORITY)
    t = undecided(uow, transfer_id, TransferStatus.AWAITING_BUYER, TransferStatus.PENDING_APPROVAL)
    append = decide_rejection(t, reason)
    uow.append(append.stream, append.event, actor.label)
    funding.note_refund_owed(uow, actor, transfer_id)  # PRODUCT.md 8.3 closing record
    return held_transfer_view(uow, transfer_id)
