"""Transfers proposed: from an accepted offer or negotiated directly, the buyer's consent
(confirm or decline), and reads. The Authority's decision is `transfer_decisions`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from market.adapters.repositories.models import certificate_of
from market.domain.commands.trading import CreateTransfer
from market.domain.deciders.transfers import decide_confirmation, decide_decline
from market.domain.errors import InvalidRequestError
from market.domain.events.trading import OfferAccepted, TransferProposed
from market.domain.model import Certificate, Transfer, TransferStatus
from market.domain.rules import offer_terms, proceeds
from market.domain.rules.transfer_checks import run
from market.domain.rulesets import Ruleset
from market.services.casefiles import gates
from market.services.certificates import halts
from market.services.kernel import reads
from market.services.kernel.actor import AUDITOR, AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.errors import ForbiddenError, not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.paging import Page
from market.services.kernel.reads import Connection
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.trading import commitments
from market.services.trading.approval_facts import read_sale, undecided
from market.services.trading.listings import open_offer_for_seller
from market.services.trading.rule_checks import (
    check_other_party,
    sale_facts,
    terms,
    today,
)
from market.services.trading.trade_lists import transfers_page
from market.services.trading.trade_views import (
    OfferView,
    TransferView,
    held_transfer_view,
    load_listing,
    load_transfer_for,
    offer_view,
    transfer_view,
)


@dataclass(frozen=True)
class Proposal:
    """A transfer about to be proposed: from an accepted offer (or counter), or negotiated
    (`offer_id` None: it waits for the buyer, PRODUCT.md 8.2)."""

    transfer_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    offer_id: str | None = None
    agreement_ref: str | None = None
    use_of_proceeds: tuple[str, ...] = ()


def accept_offer(
    uow: AbstractUnitOfWork,
    actor: Actor,
    offer_id: str,
    ruleset: Ruleset,
    use_of_proceeds: Sequence[str] | None = None,
) -> OfferView:
    """The seller accepts, optionally attesting the use of the proceeds (BR-14, TB-25)."""
    uses = proceeds.normalize_uses(use_of_proceeds)
    offer = open_offer_for_seller(uow, actor, offer_id)
    actor.require_signer()  # a preparer cannot accept (issue 29)
    row, active = halts.load_for_trading(uow, offer.certificate_id)
    halts.check_not_halted(uow, row, active)  # PRODUCT.md 8.3 trading halts
    # Issue 28 item 3: read from the stored date with today's clock, whatever the row says.
    offer_terms.check_not_expired("offer", offer.expires_on, today())
    listing = load_listing(uow, offer.listing_id)
    listing.check_open()
    cert = certificate_of(row)
    cert.check_balance(offer.amount_cents)
    commitments.check_new_transfer(uow, cert, listing.id, offer.amount_cents)
    transfer_id = new_id("trf")
    uow.append(
        listing.stream,
        OfferAccepted(offer_id=offer_id, listing_id=listing.id, transfer_id=transfer_id),
        actor.label,
    )
    proposal = Proposal(
        transfer_id,
        offer.buyer_party_id,
        offer.amount_cents,
        offer.price_cents,
        offer_id=offer_id,
        use_of_proceeds=tuple(uses),
    )
    propose_transfer(uow, actor, cert, proposal, ruleset)
    return offer_view(uow, offer_id)


def propose_transfer(
    uow: AbstractUnitOfWork,
    actor: Actor,
    cert: Certificate,
    proposal: Proposal,
    ruleset: Ruleset,
) -> None:
    """TransferProposed, and the UTH transfer fee invoiced (ADM-3)."""
    p = proposal
    uow.append(
        Transfer.stream_of(p.transfer_id),
        TransferProposed(
            transfer_id=p.transfer_id,
            certificate_id=cert.id,
            program=cert.program.value,
            seller_party_id=cert.holder_party_id,
            buyer_party_id=p.buyer_party_id,
            amount_cents=p.amount_cents,
            consideration_cents=p.consideration_cents,
            offer_id=p.offer_id,
            agreement_ref=p.agreement_ref,
            ruleset=ruleset.name,
            # BR-14 / TB-25: recorded only when attested, so other proposals keep their shape.
            use_of_proceeds=list(p.use_of_proceeds) or None,
            # PRODUCT.md 8.2: a negotiated transfer waits for the buyer; an offer was the buyer's.
            awaiting_buyer=p.offer_id is None,
        ),
        actor.label,
        new_stream=True,
    )
    # ADM-3 (UTH)
    gates.invoice_transfer_fee(uow, actor, p.transfer_id, cert, ruleset)


def create_transfer(
    uow: AbstractUnitOfWork, actor: Actor, command: CreateTransfer, ruleset: Ruleset
) -> TransferView:
    """A negotiated transfer (no listing): it waits for the buyer's confirmation
    (`awaiting_buyer`, PRODUCT.md 8.2), then for the Authority's approval; the seller may
    attest the use of the proceeds (BR-14, TB-25)."""
    c = command
    uses = proceeds.normalize_uses(c.use_of_proceeds)
    # Locked: what the balance is promised to is decided on it (commitments).
    row, active = halts.load_for_trading(uow, c.certificate_id)
    cert = certificate_of(row)
    holder = cert.holder_party_id
    actor.require_party(holder, not_found("Certificate", "certificate_id", c.certificate_id))
    halts.check_not_halted(uow, row, active)  # PRODUCT.md 8.3 trading halts
    facts = sale_facts(uow, cert, holder, c.buyer_party_id, ruleset)
    check_other_party(cert, c.buyer_party_id)
    if c.amount_cents <= 0:
        raise InvalidRequestError(
            "amount_cents must be positive.", {"amount_cents": c.amount_cents}
        )
    run(terms(c.amount_cents, c.consideration_cents), facts, ruleset).refuse_if_failed()
    commitments.check_new_transfer(uow, cert, None, c.amount_cents)
    proposal = Proposal(
        new_id("trf"),
        c.buyer_party_id,
        c.amount_cents,
        c.consideration_cents,
        agreement_ref=c.agreement_ref,
        use_of_proceeds=tuple(uses),
    )
    propose_transfer(uow, actor, cert, proposal, ruleset)
    return held_transfer_view(uow, proposal.transfer_id)


def _awaiting_this_buyer(uow: AbstractUnitOfWork, actor: Actor, transfer_id: str) -> Transfer:
    """The transfer, locked, if the actor is its buyer's user (consent is the buyer's own:
    not even the Authority gives it) and it awaits that buyer."""
    buyer = load_transfer_for(uow, actor, transfer_id).buyer_party_id
    if actor.role != PARTICIPANT or actor.party_id != buyer:
        raise ForbiddenError("Only the buyer may confirm or decline this transfer.", {})
    actor.require_signer()  # the buyer's consent takes an owner (issue 29)
    t = undecided(uow, transfer_id, TransferStatus.AWAITING_BUYER)
    uow.transfers.remember(reads.transfer(uow, transfer_id))
    return t


def confirm_transfer(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, ruleset: Ruleset
) -> TransferView:
    """The buyer consents to a negotiated transfer (PRODUCT.md 8.2): the rules a proposal
    passes are run again on today's state, then it goes to the Authority."""
    sale = read_sale(uow, transfer_id)
    t = _awaiting_this_buyer(uow, actor, transfer_id)
    row, active = sale.for_trading(t.certificate_id)
    cert = certificate_of(row)
    halts.check_not_halted(uow, row, active)  # PRODUCT.md 8.3 trading halts
    facts = sale_facts(uow, cert, t.seller_party_id, t.buyer_party_id, ruleset)
    append = decide_confirmation(t, facts, ruleset, today())
    uow.append(append.stream, append.event, actor.label)
    return held_transfer_view(uow, transfer_id)


def decline_transfer(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, reason: str | None
) -> TransferView:
    """The buyer refuses a negotiated transfer it has not confirmed (PRODUCT.md 8.2)."""
    append = decide_decline(_awaiting_this_buyer(uow, actor, transfer_id), reason)
    uow.append(append.stream, append.event, actor.label)
    return held_transfer_view(uow, transfer_id)


def get_transfer(conn: Connection, actor: Actor, transfer_id: str) -> TransferView:
    t = transfer_view(conn, transfer_id)
    if actor.role not in (AUTHORITY, AUDITOR) and actor.party_id not in (
        t["seller_party_id"],
        t["buyer_party_id"],
    ):
        raise not_found("Transfer", "transfer_id", transfer_id)
    return t


def list_transfers(
    conn: Connection, actor: Actor, status: str | None, after: int | None, limit: int
) -> tuple[list[TransferView], int | None]:
    """Transfers oldest first, a participant's own only; one joined query per page."""
    party = None if actor.role in (AUTHORITY, AUDITOR) else (actor.party_id or "")
    return transfers_page(conn, status, Page(after, limit), party=party)
