"""Listings and offers: a seller offers part or all of a certificate, buyers bid on it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.tables import Listing
from market.domain.errors import (
    InsufficientBalanceError,
    InvalidRequestError,
)
from market.domain.programs import Program
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents
from market.services import halts
from market.services.actor import PARTICIPANT, Actor
from market.services.certificates import certs_t, load_certificate
from market.services.errors import ConflictError, ForbiddenError
from market.services.numbering import new_id
from market.services.paging import split_page
from market.services.parties import load_party
from market.services.rule_checks import (
    check_balance,
    check_other_party,
    check_resale,
    refuse_if_failed,
    rule_checks,
    unreviewed_in_sale,
)
from market.services.trade_views import load_listing, load_offer, offer_view, sold_from_listing
from market.services.uow import UnitOfWork

listings_t = Listing.__table__  # type: ignore[attr-defined]


def listing_view(conn: Connection, listing_id: str, ruleset: Ruleset) -> dict[str, Any]:
    listing = load_listing(conn, listing_id)
    cert = load_certificate(conn, listing["certificate_id"])
    program = Program(cert["program"])
    sold = sold_from_listing(conn, listing_id)
    available = max(0, int(listing["amount_cents"]) - sold)
    # UTH-27 / AMB-18: what a purchase of the rest would take from unreviewed installments.
    conditional = unreviewed_in_sale(cert, min(available, int(cert["balance_cents"])))
    return listing | {
        "program": program.value,
        "fiscal_year": int(cert["fiscal_year"]),
        "certificate_number": cert["number"],
        "price_per_dollar": str(Fraction(int(listing["ask_cents"]), int(listing["amount_cents"]))),
        "floor_bps": ruleset.min_consideration(program) * 100,
        "sold_cents": sold,
        "available_cents": available,
        "conditional_cents": sum(cents for _, cents in conditional),
    }


def create_listing(
    uow: UnitOfWork,
    actor: Actor,
    certificate_id: str,
    amount_cents: int,
    ask_cents: int,
    ruleset: Ruleset,
) -> dict[str, Any]:
    cert = load_certificate(uow.conn, certificate_id)
    actor.require_party(cert["holder_party_id"])
    halts.check_not_halted(uow.conn, cert)  # PRODUCT.md 8.3 trading halts
    check_resale(cert, ruleset)
    if amount_cents <= 0 or ask_cents < 0:
        raise InvalidRequestError(
            "amount_cents must be positive and ask_cents not negative.",
            {"amount_cents": amount_cents, "ask_cents": ask_cents},
        )
    check_balance(cert, amount_cents)
    unreviewed_in_sale(cert, amount_cents, ruleset)
    listing_id = new_id("lst")
    uow.append(
        f"listing-{listing_id}",
        "LISTING_CREATED",
        {
            "listing_id": listing_id,
            "certificate_id": certificate_id,
            "seller_party_id": cert["holder_party_id"],
            "amount_cents": amount_cents,
            "ask_cents": ask_cents,
        },
        actor.label,
        new_stream=True,
    )
    return listing_view(uow.conn, listing_id, ruleset)


def withdraw_listing(
    uow: UnitOfWork, actor: Actor, listing_id: str, ruleset: Ruleset
) -> dict[str, Any]:
    listing = load_listing(uow.conn, listing_id)
    actor.require_party(listing["seller_party_id"])
    # A listing suspended by a trading halt may be withdrawn too (it then stays withdrawn).
    if listing["status"] not in ("open", "suspended"):
        raise ConflictError(
            f"Listing {listing_id} is {listing['status']}, not open.",
            {"listing_id": listing_id, "status": listing["status"]},
        )
    uow.append(
        f"listing-{listing_id}", "LISTING_WITHDRAWN", {"listing_id": listing_id}, actor.label
    )
    return listing_view(uow.conn, listing_id, ruleset)


def list_listings(
    conn: Connection,
    actor: Actor,
    program: str | None,
    after: int | None,
    limit: int,
    ruleset: Ruleset,
) -> tuple[list[dict[str, Any]], int | None]:
    """Open listings, oldest first; any signed-in user may browse the market."""
    stmt = (
        select(listings_t.c.id, listings_t.c.created_seq)
        .select_from(listings_t.join(certs_t, certs_t.c.id == listings_t.c.certificate_id))
        .where(listings_t.c.status == "open")
        .order_by(listings_t.c.created_seq)
        .limit(limit + 1)
    )
    if program:
        stmt = stmt.where(certs_t.c.program == program)
    if after is not None:
        stmt = stmt.where(listings_t.c.created_seq > after)
    rows = conn.execute(stmt).all()
    kept, nxt = split_page(rows, limit, lambda r: int(r.created_seq))
    return [listing_view(conn, r.id, ruleset) for r in kept], nxt


# ---- offers --------------------------------------------------------------------------


def make_offer(
    uow: UnitOfWork,
    actor: Actor,
    listing_id: str,
    amount_cents: int,
    price_cents: int,
    ruleset: Ruleset,
) -> dict[str, Any]:
    listing = load_listing(uow.conn, listing_id)
    actor.require(PARTICIPANT)
    if actor.party_id is None:
        raise ForbiddenError("Your user is not linked to a party, so it cannot buy.", {})
    buyer = load_party(uow.conn, actor.party_id)
    cert = load_certificate(uow.conn, listing["certificate_id"])
    check_other_party(cert, buyer["id"])
    halts.check_not_halted(uow.conn, cert)  # PRODUCT.md 8.3 trading halts
    if listing["status"] != "open":
        raise ConflictError(
            f"Listing {listing_id} is {listing['status']}, not open.",
            {"listing_id": listing_id, "status": listing["status"]},
        )
    if amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {"amount_cents": amount_cents})
    available = int(listing["amount_cents"]) - sold_from_listing(uow.conn, listing_id)
    if amount_cents > available:
        raise InsufficientBalanceError(
            f"The listing has {format_cents(available)} available; "
            f"{format_cents(amount_cents)} was offered for.",
            {"listing_id": listing_id, "available_cents": available, "amount_cents": amount_cents},
        )
    seller = load_party(uow.conn, cert["holder_party_id"])
    checks, failures = rule_checks(
        uow.conn, cert, seller, buyer, amount_cents, price_cents, ruleset, None
    )
    refuse_if_failed(checks, failures)
    offer_id = new_id("ofr")
    uow.append(
        f"listing-{listing_id}",
        "OFFER_MADE",
        {
            "offer_id": offer_id,
            "listing_id": listing_id,
            "certificate_id": cert["id"],
            "seller_party_id": cert["holder_party_id"],
            "buyer_party_id": buyer["id"],
            "amount_cents": amount_cents,
            "price_cents": price_cents,
        },
        actor.label,
    )
    return offer_view(uow.conn, offer_id)


def open_offer_for_seller(uow: UnitOfWork, actor: Actor, offer_id: str) -> dict[str, Any]:
    offer = load_offer(uow.conn, offer_id)
    actor.require_party(offer["seller_party_id"])
    if offer["status"] != "open":
        raise ConflictError(
            f"Offer {offer_id} is {offer['status']}, not open.",
            {"offer_id": offer_id, "status": offer["status"]},
        )
    return offer


def decline_offer(uow: UnitOfWork, actor: Actor, offer_id: str) -> dict[str, Any]:
    offer = open_offer_for_seller(uow, actor, offer_id)
    uow.append(
        f"listing-{offer['listing_id']}",
        "OFFER_DECLINED",
        {"offer_id": offer_id, "listing_id": offer["listing_id"]},
        actor.label,
    )
    return offer_view(uow.conn, offer_id)


# ---- transfers -----------------------------------------------------------------------
