"""Transfers proposed: from an accepted offer or negotiated directly, the buyer's consent
(confirm or decline), and reads. The Authority's decision is `transfer_decisions`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection

from market.domain.errors import (
    InvalidRequestError,
)
from market.domain.events.trading import (
    OfferAccepted,
    TransferConfirmed,
    TransferDeclined,
    TransferProposed,
)
from market.domain.rules import offer_terms, proceeds
from market.domain.rulesets import Ruleset
from market.services.casefiles import gates
from market.services.certificates import halts
from market.services.kernel import reads
from market.services.kernel.actor import AUDITOR, AUTHORITY, PARTICIPANT, Actor
from market.services.kernel.errors import ConflictError, ForbiddenError, not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import load_party_pair
from market.services.trading import commitments
from market.services.trading.listings import open_offer_for_seller
from market.services.trading.rule_checks import (
    check_balance,
    check_other_party,
    refuse_if_failed,
    rule_checks,
    today,
)
from market.services.trading.trade_lists import transfers_page
from market.services.trading.trade_views import (
    day,
    held_transfer_view,
    load_listing,
    load_transfer,
    load_transfer_for,
    offer_view,
    transfer_view,
)


def accept_offer(
    uow: AbstractUnitOfWork,
    actor: Actor,
    offer_id: str,
    ruleset: Ruleset,
    use_of_proceeds: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The seller accepts, optionally attesting the use of the proceeds (BR-14, TB-25)."""
    uses = proceeds.normalize_uses(use_of_proceeds)
    offer = open_offer_for_seller(uow, actor, offer_id)
    actor.require_signer()  # a preparer cannot accept (issue 29)
    halts.check_not_halted(uow, offer["certificate_id"])  # PRODUCT.md 8.3 trading halts
    # Issue 28 item 3: read from the stored date with today's clock, whatever the row says.
    offer_terms.check_not_expired("offer", day(offer["expires_on"]), today())
    listing = load_listing(uow, offer["listing_id"])
    if listing["status"] != "open":
        raise ConflictError(
            f"Listing {listing['id']} is {listing['status']}, not open.",
            {"listing_id": listing["id"], "status": listing["status"]},
        )
    cert = reads.certificate(uow, offer["certificate_id"])
    check_balance(cert, int(offer["amount_cents"]))
    commitments.check_new_transfer(uow, cert, listing["id"], int(offer["amount_cents"]))
    transfer_id = new_id("trf")
    uow.append(
        f"listing-{listing['id']}",
        OfferAccepted(offer_id=offer_id, listing_id=listing["id"], transfer_id=transfer_id),
        actor.label,
    )
    propose_transfer(
        uow,
        actor,
        transfer_id,
        cert,
        offer["buyer_party_id"],
        int(offer["amount_cents"]),
        int(offer["price_cents"]),
        offer_id,
        None,
        ruleset,
        uses,
    )
    return offer_view(uow, offer_id)


def propose_transfer(
    uow: AbstractUnitOfWork,
    actor: Actor,
    transfer_id: str,
    cert: dict[str, Any],
    buyer_party_id: str,
    amount_cents: int,
    consideration_cents: int,
    offer_id: str | None,
    agreement_ref: str | None,
    ruleset: Ruleset,
    use_of_proceeds: list[str],
) -> None:
    uow.append(
        f"transfer-{transfer_id}",
        TransferProposed(
            transfer_id=transfer_id,
            certificate_id=cert["id"],
            program=cert["program"],
            seller_party_id=cert["holder_party_id"],
            buyer_party_id=buyer_party_id,
            amount_cents=amount_cents,
            consideration_cents=consideration_cents,
            offer_id=offer_id,
            agreement_ref=agreement_ref,
            ruleset=ruleset.name,
            # BR-14 / TB-25: recorded only when attested, so other proposals keep their shape.
            use_of_proceeds=use_of_proceeds or None,
            # PRODUCT.md 8.2: a negotiated transfer waits for the buyer; an offer was the buyer's.
            awaiting_buyer=offer_id is None,
        ),
        actor.label,
        new_stream=True,
    )
    gates.invoice_transfer_fee(uow, actor, transfer_id, cert, ruleset)  # ADM-3 (UTH)


def create_transfer(
    uow: AbstractUnitOfWork,
    actor: Actor,
    certificate_id: str,
    buyer_party_id: str,
    amount_cents: int,
    consideration_cents: int,
    agreement_ref: str | None,
    ruleset: Ruleset,
    use_of_proceeds: Sequence[str] | None = None,
) -> dict[str, Any]:
    """A negotiated transfer (no listing): it waits for the buyer's confirmation
    (`awaiting_buyer`, PRODUCT.md 8.2), then for the Authority's approval; the seller may
    attest the use of the proceeds (BR-14, TB-25)."""
    uses = proceeds.normalize_uses(use_of_proceeds)
    # Locked: what the balance is promised to is decided on it (commitments).
    cert = reads.certificate(uow, certificate_id)
    actor.require_party(
        cert["holder_party_id"], not_found("Certificate", "certificate_id", certificate_id)
    )
    halts.check_not_halted(uow, cert)  # PRODUCT.md 8.3 trading halts
    seller, buyer = load_party_pair(uow, cert["holder_party_id"], buyer_party_id)
    check_other_party(cert, buyer_party_id)
    if amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {"amount_cents": amount_cents})
    checks, failures = rule_checks(
        uow, cert, seller, buyer, amount_cents, consideration_cents, ruleset, None
    )
    refuse_if_failed(checks, failures)
    commitments.check_new_transfer(uow, cert, None, amount_cents)
    transfer_id = new_id("trf")
    propose_transfer(
        uow,
        actor,
        transfer_id,
        cert,
        buyer_party_id,
        amount_cents,
        consideration_cents,
        None,
        agreement_ref,
        ruleset,
        uses,
    )
    return held_transfer_view(uow, transfer_id)


def undecided_transfer(
    uow: AbstractUnitOfWork, transfer_id: str, statuses: tuple[str, ...]
) -> dict[str, Any]:
    t = load_transfer(uow, transfer_id)
    if t["status"] == "awaiting_buyer" and "awaiting_buyer" not in statuses:
        raise ConflictError(
            f"Transfer {transfer_id} is awaiting the buyer's confirmation; the Authority "
            "decides on it once the buyer has confirmed (PRODUCT.md 8.2).",
            {"transfer_id": transfer_id, "status": t["status"]},
            code="awaiting_buyer",
        )
    if t["status"] not in statuses:
        raise ConflictError(
            f"Transfer {transfer_id} is already {t['status']}.",
            {"transfer_id": transfer_id, "status": t["status"]},
        )
    # Until decided, the stream holds TRANSFER_PROPOSED and, once given, TRANSFER_CONFIRMED.
    uow.note_version(f"transfer-{transfer_id}", 1 if t.get("confirmed_seq") is None else 2)
    return t


def pending_transfer(uow: AbstractUnitOfWork, transfer_id: str) -> dict[str, Any]:
    return undecided_transfer(uow, transfer_id, ("pending_approval",))


def _awaiting_this_buyer(uow: AbstractUnitOfWork, actor: Actor, transfer_id: str) -> dict[str, Any]:
    """The transfer, locked, if the actor is its buyer's user (consent is the buyer's own:
    not even the Authority gives it) and it awaits that buyer."""
    buyer = load_transfer_for(uow, actor, transfer_id)["buyer_party_id"]
    if actor.role != PARTICIPANT or actor.party_id != buyer:
        raise ForbiddenError("Only the buyer may confirm or decline this transfer.", {})
    actor.require_signer()  # the buyer's consent takes an owner (issue 29)
    t = undecided_transfer(uow, transfer_id, ("awaiting_buyer",))
    uow.transfers.remember(t)
    return t


def confirm_transfer(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, ruleset: Ruleset
) -> dict[str, Any]:
    """The buyer consents to a negotiated transfer (PRODUCT.md 8.2): the rules a proposal
    passes are run again on today's state, then it goes to the Authority."""
    t = _awaiting_this_buyer(uow, actor, transfer_id)
    cert = reads.certificate(uow, t["certificate_id"])
    halts.check_not_halted(uow, cert)  # PRODUCT.md 8.3 trading halts
    seller, buyer = load_party_pair(uow, t["seller_party_id"], t["buyer_party_id"])
    checks, failures = rule_checks(
        uow,
        cert,
        seller,
        buyer,
        int(t["amount_cents"]),
        int(t["consideration_cents"]),
        ruleset,
        None,
    )
    refuse_if_failed(checks, failures)
    uow.append(
        f"transfer-{transfer_id}",
        TransferConfirmed(
            transfer_id=transfer_id, buyer_party_id=t["buyer_party_id"], checks=checks
        ),
        actor.label,
    )
    return held_transfer_view(uow, transfer_id)


def decline_transfer(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, reason: str | None
) -> dict[str, Any]:
    """The buyer refuses a negotiated transfer it has not confirmed (PRODUCT.md 8.2)."""
    t = _awaiting_this_buyer(uow, actor, transfer_id)
    uow.append(
        f"transfer-{transfer_id}",
        TransferDeclined(
            transfer_id=transfer_id,
            buyer_party_id=t["buyer_party_id"],
            reasons=[reason.strip()] if reason and reason.strip() else [],
        ),
        actor.label,
    )
    return held_transfer_view(uow, transfer_id)


def get_transfer(conn: Connection, actor: Actor, transfer_id: str) -> dict[str, Any]:
    t = transfer_view(conn, transfer_id)
    if actor.role not in (AUTHORITY, AUDITOR) and actor.party_id not in (
        t["seller_party_id"],
        t["buyer_party_id"],
    ):
        raise not_found("Transfer", "transfer_id", transfer_id)
    return t


def list_transfers(
    conn: Connection, actor: Actor, status: str | None, after: int | None, limit: int
) -> tuple[list[dict[str, Any]], int | None]:
    """Transfers oldest first, a participant's own only; one joined query per page."""
    party = None if actor.role in (AUTHORITY, AUDITOR) else (actor.party_id or "")
    return transfers_page(conn, status, after, limit, party=party)
