"""Counter-offers (issue 28 item 3): the seller answers a buyer's open offer with its own
amount and price, standing through an optional `expires_on`; the buyer accepts, which
proposes the transfer on the counter's terms (the buyer's acceptance is its consent, so it
goes straight to the Authority), or declines, which closes the offer.

The counter is held to the rules an offer is (the program's floor, affiliation, the buyer's
taxes, the listing's available amount), and accepting it to those an acceptance is (not
expired, the listing still open, the balance not promised elsewhere)."""

from __future__ import annotations

from market.adapters.repositories.models import certificate_of
from market.domain.commands.trading import CounterOffer
from market.domain.errors import InsufficientBalanceError, InvalidRequestError
from market.domain.events.trading import (
    CounterOfferAccepted,
    CounterOfferDeclined,
    OfferCountered,
)
from market.domain.model import Listing, Offer
from market.domain.rules import offer_terms
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents
from market.services.certificates import halts
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.errors import ForbiddenError, not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.trading import commitments
from market.services.trading.listings import open_offer_for_seller
from market.services.trading.rule_checks import sale_checks, terms, today
from market.services.trading.trade_views import (
    OfferView,
    load_listing,
    load_offer,
    offer_view,
    sold_from_listing,
)
from market.services.trading.transfers import Proposal, propose_transfer


def _open_listing(uow: AbstractUnitOfWork, listing_id: str) -> Listing:
    listing = load_listing(uow, listing_id)
    listing.check_open()
    return listing


def counter_offer(
    uow: AbstractUnitOfWork, actor: Actor, command: CounterOffer, ruleset: Ruleset
) -> OfferView:
    """The seller's counter to an open, unexpired offer."""
    offer_id, amount_cents, price_cents, expires_on = (
        command.offer_id,
        command.amount_cents,
        command.price_cents,
        command.expires_on,
    )
    offer = open_offer_for_seller(uow, actor, offer_id)
    offer_terms.check_not_expired("offer", offer.expires_on, today())
    offer_terms.check_expiry_ahead(expires_on, today())
    if amount_cents <= 0 or price_cents < 0:
        raise InvalidRequestError(
            "amount_cents must be positive and price_cents not negative.",
            {"amount_cents": amount_cents, "price_cents": price_cents},
        )
    listing = _open_listing(uow, offer.listing_id)
    row, active = halts.load_for_trading(uow, offer.certificate_id)
    cert = certificate_of(row)
    halts.check_not_halted(uow, row, active)  # PRODUCT.md 8.3 trading halts
    available = listing.amount_cents - sold_from_listing(uow, listing.id)
    if amount_cents > available:
        raise InsufficientBalanceError(
            f"The listing has {format_cents(available)} available; the counter is for "
            f"{format_cents(amount_cents)}.",
            {"listing_id": listing.id, "available_cents": available},
        )
    parties = (offer.seller_party_id, offer.buyer_party_id)
    sale_checks(uow, cert, parties, terms(amount_cents, price_cents), ruleset).refuse_if_failed()
    uow.append(
        listing.stream,
        OfferCountered(
            offer_id=offer_id,
            listing_id=listing.id,
            amount_cents=amount_cents,
            price_cents=price_cents,
            expires_on=None if expires_on is None else expires_on.isoformat(),
        ),
        actor.label,
    )
    return offer_view(uow, offer_id)


def _countered_for_buyer(uow: AbstractUnitOfWork, actor: Actor, offer_id: str) -> Offer:
    """The offer, if the actor is its buyer's user and the seller's counter awaits it."""
    offer = load_offer(uow, offer_id)
    if actor.role == PARTICIPANT and actor.party_id not in (
        offer.seller_party_id,
        offer.buyer_party_id,
    ):
        raise not_found("Offer", "offer_id", offer_id)
    if actor.role != PARTICIPANT or actor.party_id != offer.buyer_party_id:
        raise ForbiddenError("Only the buyer may accept or decline the seller's counter.", {})
    actor.require_signer()  # the buyer's consent takes an owner (issue 29)
    offer.check_countered()
    return offer


def accept_counter(
    uow: AbstractUnitOfWork, actor: Actor, offer_id: str, ruleset: Ruleset
) -> OfferView:
    """The buyer accepts the seller's counter: the transfer on its terms awaits the
    Authority's approval, the rules run again on today's state."""
    offer = _countered_for_buyer(uow, actor, offer_id)
    offer_terms.check_not_expired("seller's counter-offer", offer.counter_expires_on, today())
    amount, price = offer.counter_terms()
    listing = _open_listing(uow, offer.listing_id)
    row, active = halts.load_for_trading(uow, offer.certificate_id)
    cert = certificate_of(row)
    halts.check_not_halted(uow, row, active)  # PRODUCT.md 8.3 trading halts
    cert.check_balance(amount)
    parties = (offer.seller_party_id, offer.buyer_party_id)
    sale_checks(uow, cert, parties, terms(amount, price), ruleset).refuse_if_failed()
    commitments.check_new_transfer(uow, cert, listing.id, amount)
    transfer_id = new_id("trf")
    uow.append(
        listing.stream,
        CounterOfferAccepted(offer_id=offer_id, listing_id=listing.id, transfer_id=transfer_id),
        actor.label,
    )
    proposal = Proposal(transfer_id, offer.buyer_party_id, amount, price, offer_id=offer_id)
    propose_transfer(uow, actor, cert, proposal, ruleset)
    return offer_view(uow, offer_id)


def decline_counter(uow: AbstractUnitOfWork, actor: Actor, offer_id: str) -> OfferView:
    """The buyer declines the seller's counter; the offer is closed (it may offer again)."""
    offer = _countered_for_buyer(uow, actor, offer_id)
    uow.append(
        Listing.stream_of(offer.listing_id),
        CounterOfferDeclined(offer_id=offer_id, listing_id=offer.listing_id),
        actor.label,
    )
    return offer_view(uow, offer_id)
