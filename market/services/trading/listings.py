"""Listings and offers: a seller offers part or all of a certificate, buyers bid on it."""

from __future__ import annotations

from market.adapters.repositories.models import certificate_of
from market.adapters.repositories.trading_models import listing_row
from market.domain.commands.trading import CreateListing, MakeOffer
from market.domain.errors import (
    BelowMinimumConsiderationError,
    InsufficientBalanceError,
    InvalidRequestError,
)
from market.domain.events.trading import (
    ListingCreated,
    ListingWithdrawn,
    OfferDeclined,
    OfferMade,
)
from market.domain.model import Certificate, Listing, Offer
from market.domain.rules import consideration, offer_terms
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents
from market.services.certificates import halts
from market.services.kernel import reads
from market.services.kernel.actor import PARTICIPANT, Actor
from market.services.kernel.errors import ForbiddenError, not_found
from market.services.kernel.numbering import new_id
from market.services.kernel.paging import Page
from market.services.kernel.reads import Connection, Source
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import load_party
from market.services.trading import commitments, sale_windows
from market.services.trading.rule_checks import (
    check_other_party,
    check_resale,
    sale_checks,
    terms,
    today,
    unreviewed_in_sale,
)
from market.services.trading.trade_lists import (
    ListedView,
    ListingView,
    listings_page,
    view_of_listing,
)
from market.services.trading.trade_views import (
    OfferView,
    load_listing,
    load_offer,
    offer_view,
    sold_from_listing,
)


def listing_view(source: Source, listing_id: str, ruleset: Ruleset) -> ListedView:
    row = listing_row(reads.listing(source, listing_id))
    cert = certificate_of(reads.certificate(source, row["certificate_id"]))
    view = view_of_listing(row, cert, sold_from_listing(source, listing_id), ruleset)
    return {**view, **sale_windows.window_fields(cert, ruleset)}


def _check_ask(cert: Certificate, amount_cents: int, ask_cents: int, ruleset: Ruleset) -> None:
    """A listing may not ask less than the program's floor for its amount: no buyer could
    pay it (CMN-5, BR-8, UTH-23, DMG-11, DMC-9, TB-22)."""
    program = cert.program
    try:
        consideration.check_minimum_consideration(program, ask_cents, amount_cents, ruleset)
    except BelowMinimumConsiderationError as exc:
        raise BelowMinimumConsiderationError(
            f"The ask is below the floor, so no buyer could pay it: {exc.message} (CMN-5).",
            exc.details,
        ) from None


def create_listing(
    uow: AbstractUnitOfWork, actor: Actor, command: CreateListing, ruleset: Ruleset
) -> ListedView:
    certificate_id, amount_cents, ask_cents = (
        command.certificate_id,
        command.amount_cents,
        command.ask_cents,
    )
    row, active = halts.load_for_trading(uow, certificate_id)
    cert = certificate_of(row)
    actor.require_party(
        cert.holder_party_id, not_found("Certificate", "certificate_id", certificate_id)
    )
    halts.check_not_halted(uow, row, active)  # PRODUCT.md 8.3 trading halts
    check_resale(cert, ruleset)
    if amount_cents <= 0 or ask_cents < 0:
        raise InvalidRequestError(
            "amount_cents must be positive and ask_cents not negative.",
            {"amount_cents": amount_cents, "ask_cents": ask_cents},
        )
    cert.check_balance(amount_cents)
    _check_ask(cert, amount_cents, ask_cents, ruleset)
    sale_windows.check_sellable(cert, today(), ruleset)
    unreviewed_in_sale(cert, amount_cents, ruleset)
    listing_id = new_id("lst")
    commitments.check_new_listing(uow, cert, listing_id, amount_cents)
    uow.append(
        f"listing-{listing_id}",
        ListingCreated(
            listing_id=listing_id,
            certificate_id=certificate_id,
            seller_party_id=cert.holder_party_id,
            amount_cents=amount_cents,
            ask_cents=ask_cents,
        ),
        actor.label,
        new_stream=True,
    )
    return listing_view(uow, listing_id, ruleset)


def withdraw_listing(
    uow: AbstractUnitOfWork, actor: Actor, listing_id: str, ruleset: Ruleset
) -> ListedView:
    listing = load_listing(uow, listing_id)
    actor.require_party(listing.seller_party_id, not_found("Listing", "listing_id", listing_id))
    # A listing suspended by a trading halt may be withdrawn too (it then stays withdrawn).
    listing.check_withdrawable()
    uow.append(f"listing-{listing_id}", ListingWithdrawn(listing_id=listing_id), actor.label)
    return listing_view(uow, listing_id, ruleset)


def list_listings(
    conn: Connection,
    program: str | None,
    page: Page,
    ruleset: Ruleset,
    seller_party_id: str | None = None,
) -> tuple[list[ListingView], int | None]:
    """Open listings, oldest first; any signed-in user may browse the market.
    `seller_party_id` keeps one seller's (its desk)."""
    return listings_page(conn, program, page, ruleset, seller_party_id)


# ---- offers --------------------------------------------------------------------------


def make_offer(
    uow: AbstractUnitOfWork, actor: Actor, command: MakeOffer, ruleset: Ruleset
) -> OfferView:
    """A buyer's offer, standing through `expires_on` when given (issue 28 item 3)."""
    listing_id, amount_cents, price_cents, expires_on = (
        command.listing_id,
        command.amount_cents,
        command.price_cents,
        command.expires_on,
    )
    listing = load_listing(uow, listing_id)
    actor.require(PARTICIPANT)
    if actor.party_id is None:
        raise ForbiddenError("Your user is not linked to a party, so it cannot buy.", {})
    buyer = load_party(uow, actor.party_id)
    row, active = halts.load_for_trading(uow, listing.certificate_id)
    cert = certificate_of(row)
    check_other_party(cert, buyer["id"])
    halts.check_not_halted(uow, row, active)  # PRODUCT.md 8.3 trading halts
    listing.check_open()
    if amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {"amount_cents": amount_cents})
    offer_terms.check_expiry_ahead(expires_on, today())
    available = listing.amount_cents - sold_from_listing(uow, listing_id)
    if amount_cents > available:
        raise InsufficientBalanceError(
            f"The listing has {format_cents(available)} available; "
            f"{format_cents(amount_cents)} was offered for.",
            {"listing_id": listing_id, "available_cents": available, "amount_cents": amount_cents},
        )
    parties = (cert.holder_party_id, buyer["id"])
    sale_checks(uow, cert, parties, terms(amount_cents, price_cents), ruleset).refuse_if_failed()
    offer_id = new_id("ofr")
    uow.append(
        f"listing-{listing_id}",
        OfferMade(
            offer_id=offer_id,
            listing_id=listing_id,
            certificate_id=cert.id,
            seller_party_id=cert.holder_party_id,
            buyer_party_id=buyer["id"],
            amount_cents=amount_cents,
            price_cents=price_cents,
            expires_on=None if expires_on is None else expires_on.isoformat(),
        ),
        actor.label,
    )
    return offer_view(uow, offer_id)


def open_offer_for_seller(uow: AbstractUnitOfWork, actor: Actor, offer_id: str) -> Offer:
    offer = load_offer(uow, offer_id)
    actor.require_party(offer.seller_party_id, not_found("Offer", "offer_id", offer_id))
    offer.check_open()
    return offer


def decline_offer(uow: AbstractUnitOfWork, actor: Actor, offer_id: str) -> OfferView:
    offer = open_offer_for_seller(uow, actor, offer_id)
    uow.append(
        Listing.stream_of(offer.listing_id),
        OfferDeclined(offer_id=offer_id, listing_id=offer.listing_id),
        actor.label,
    )
    return offer_view(uow, offer_id)


# ---- transfers -----------------------------------------------------------------------
