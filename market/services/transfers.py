"""Transfers: proposed from an accepted offer or negotiated directly, then approved or
rejected by the Authority. Approval re-checks every rule inside the unit of work that
appends it, holding the certificate's row (rows first) or the whole ledger (head first),
so two approvals can never spend the same cents."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.engine import Connection

from market.adapters.tables import Transfer
from market.domain.errors import (
    InvalidRequestError,
)
from market.domain.programs import Program, buyer_tax_types
from market.domain.rules import proceeds, uth
from market.domain.rules.recapture import hq_window_end
from market.domain.rulesets import Ruleset
from market.services import funding, halts
from market.services.actor import AUDITOR, AUTHORITY, Actor
from market.services.certificates import (
    activity_ids_of,
    certificate_status,
    load_certificate,
    uth_tranches,
)
from market.services.errors import ConflictError, ForbiddenError
from market.services.listings import open_offer_for_seller
from market.services.numbering import derived_number, new_id
from market.services.paging import split_page
from market.services.parties import load_party_pair
from market.services.rule_checks import (
    check_balance,
    check_other_party,
    refuse_if_failed,
    rule_checks,
    today,
)
from market.services.trade_views import (
    held_transfer_view,
    load_listing,
    load_offer,
    load_transfer,
    offer_view,
    sold_from_listing,
    transfer_view,
)
from market.services.uow import UnitOfWork

transfers_t = Transfer.__table__  # type: ignore[attr-defined]


def accept_offer(
    uow: UnitOfWork,
    actor: Actor,
    offer_id: str,
    ruleset: Ruleset,
    use_of_proceeds: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The seller accepts, optionally attesting the use of the proceeds (BR-14, TB-25)."""
    uses = proceeds.normalize_uses(use_of_proceeds)
    offer = open_offer_for_seller(uow, actor, offer_id)
    halts.check_not_halted(uow.conn, offer["certificate_id"])  # PRODUCT.md 8.3 trading halts
    listing = load_listing(uow.conn, offer["listing_id"])
    if listing["status"] != "open":
        raise ConflictError(
            f"Listing {listing['id']} is {listing['status']}, not open.",
            {"listing_id": listing["id"], "status": listing["status"]},
        )
    cert = load_certificate(uow.conn, offer["certificate_id"])
    check_balance(cert, int(offer["amount_cents"]))
    transfer_id = new_id("trf")
    uow.append(
        f"listing-{listing['id']}",
        "OFFER_ACCEPTED",
        {"offer_id": offer_id, "listing_id": listing["id"], "transfer_id": transfer_id},
        actor.label,
    )
    _propose(
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
    return offer_view(uow.conn, offer_id)


def _propose(
    uow: UnitOfWork,
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
    # BR-14 / TB-25: recorded only when attested, so other proposals keep their shape.
    attested = {"use_of_proceeds": use_of_proceeds} if use_of_proceeds else {}
    uow.append(
        f"transfer-{transfer_id}",
        "TRANSFER_PROPOSED",
        {
            "transfer_id": transfer_id,
            "certificate_id": cert["id"],
            "program": cert["program"],
            "seller_party_id": cert["holder_party_id"],
            "buyer_party_id": buyer_party_id,
            "amount_cents": amount_cents,
            "consideration_cents": consideration_cents,
            "offer_id": offer_id,
            "agreement_ref": agreement_ref,
            "ruleset": ruleset.name,
        }
        | attested,
        actor.label,
        new_stream=True,
    )


def create_transfer(
    uow: UnitOfWork,
    actor: Actor,
    certificate_id: str,
    buyer_party_id: str,
    amount_cents: int,
    consideration_cents: int,
    agreement_ref: str | None,
    ruleset: Ruleset,
    use_of_proceeds: Sequence[str] | None = None,
) -> dict[str, Any]:
    """A negotiated transfer (no listing), awaiting the Authority's approval; the seller
    may attest the use of the proceeds (BR-14, TB-25)."""
    uses = proceeds.normalize_uses(use_of_proceeds)
    cert = load_certificate(uow.conn, certificate_id)
    actor.require_party(cert["holder_party_id"])
    halts.check_not_halted(uow.conn, cert)  # PRODUCT.md 8.3 trading halts
    seller, buyer = load_party_pair(uow.conn, cert["holder_party_id"], buyer_party_id)
    check_other_party(cert, buyer_party_id)
    if amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {"amount_cents": amount_cents})
    checks, failures = rule_checks(
        uow.conn, cert, seller, buyer, amount_cents, consideration_cents, ruleset, None
    )
    refuse_if_failed(checks, failures)
    transfer_id = new_id("trf")
    _propose(
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


def _pending(uow: UnitOfWork, transfer_id: str, *, for_update: bool = False) -> dict[str, Any]:
    t = load_transfer(uow.conn, transfer_id, for_update=for_update)
    if t["status"] != "pending_approval":
        raise ConflictError(
            f"Transfer {transfer_id} is already {t['status']}.",
            {"transfer_id": transfer_id, "status": t["status"]},
        )
    # While pending, TRANSFER_PROPOSED is the stream's only event.
    uow.events.note_version(f"transfer-{transfer_id}", 1)
    return t


def _split_tranches(cert: dict[str, Any], amount_cents: int) -> tuple[list[Any], list[Any]]:
    """UTH: the buyer takes the earliest unsold installments first, unreviewed ones as
    `conditional` tranches (uth.split_tranches). Other programs' periods are copied."""
    tranches = uth_tranches(cert)
    if tranches is None:
        return list(cert["tax_periods"]), list(cert["tax_periods"])
    return uth.split_tranches(tranches, amount_cents)


def approve_transfer(
    uow: UnitOfWork,
    actor: Actor,
    transfer_id: str,
    ruleset: Ruleset,
    exchange_on: date | None = None,
) -> dict[str, Any]:
    """Re-check every rule on the current state; refuse (writing nothing) or approve.

    Safe in a rows-first unit of work: it locks, in this order, the transfer, the listing
    it came from (if any) and the certificate; what else it reads (parties, ownership, the
    TECH application) only head-first commands change, and none runs meanwhile."""
    actor.require(AUTHORITY)
    t = _pending(uow, transfer_id, for_update=True)
    on = exchange_on or today()
    listing: dict[str, Any] | None = None
    if t["offer_id"]:
        offer = load_offer(uow.conn, t["offer_id"])
        listing = load_listing(uow.conn, offer["listing_id"], for_update=True)
    cert = load_certificate(uow.conn, t["certificate_id"], for_update=True)
    halts.check_not_halted(uow.conn, cert)  # PRODUCT.md 8.3 trading halts
    funding.check_funded(uow.conn, t, ruleset)  # PRODUCT.md 8.3 closing record
    uow.store.remember("transfers", t)
    uow.store.remember("certificates", cert)
    seller, buyer = load_party_pair(uow.conn, t["seller_party_id"], t["buyer_party_id"])
    amount = int(t["amount_cents"])
    checks, failures = rule_checks(
        uow.conn,
        cert,
        seller,
        buyer,
        amount,
        int(t["consideration_cents"]),
        ruleset,
        on,
        use_of_proceeds=t.get("use_of_proceeds") or [],
    )
    checks.append(
        {
            "rule": "caps",
            "passed": True,
            "message": "Caps and pools were charged when the certificate was issued; "
            "a transfer moves credit and charges none again (CMN-4(c)).",
        }
    )
    refuse_if_failed(checks, failures)
    program = Program(cert["program"])
    seller_periods, buyer_periods = _split_tranches(cert, amount)
    listing_id, listing_status = None, None
    if listing is not None:
        listing_id = listing["id"]
        sold = sold_from_listing(uow.conn, listing_id) + amount
        listing_status = "sold" if sold >= int(listing["amount_cents"]) else listing["status"]
    buyer_cert_id = new_id("crt")
    # Numbered before the first append: the certificate's row lock keeps it unique.
    buyer_number = derived_number(cert, "T")
    balance_after = int(cert["balance_cents"]) - amount
    uow.append(
        f"transfer-{transfer_id}",
        "TRANSFER_APPROVED",
        {
            "transfer_id": transfer_id,
            "certificate_id": cert["id"],
            "amount_cents": amount,
            "consideration_cents": int(t["consideration_cents"]),
            "buyer_certificate_id": buyer_cert_id,
            "exchange_date": on.isoformat(),
            "hq_window_end": (
                hq_window_end(on, ruleset).isoformat() if program is Program.TECH else None
            ),
            "checks": checks,
            "seller_status": certificate_status(
                int(cert["allowed_cents"]), balance_after, int(cert["queued_cents"])
            ),
            "seller_tax_periods": seller_periods,
            "listing_id": listing_id,
            "listing_status": listing_status,
        },
        actor.label,
    )
    uow.append(
        f"certificate-{buyer_cert_id}",
        "CERT_ISSUED",
        {
            "certificate_id": buyer_cert_id,
            "number": buyer_number,
            "program": program.value,
            "holder_party_id": t["buyer_party_id"],
            "original_holder_party_id": cert["original_holder_party_id"],
            "parent_id": cert["id"],
            "root_id": cert["root_id"],
            "origin": "transfer",
            "is_original": False,
            "face_cents": amount,
            "allowed_cents": amount,
            "queued_cents": 0,
            "status": "issued",
            "fiscal_year": int(cert["fiscal_year"]),
            "tax_types": sorted(t_.value for t_ in buyer_tax_types(program)),
            "tax_periods": buyer_periods,
            "credit_year": cert["credit_year"],
            "carryover_last_year": cert["carryover_last_year"],
            "waiver_statement": cert["waiver_statement"],
            "attributes": {
                "transfer_id": transfer_id,
                "seller_party_id": t["seller_party_id"],
                "consideration_cents": int(t["consideration_cents"]),
                "exchange_date": on.isoformat(),
                "creditable_activity_ids": activity_ids_of(uow.conn, cert),
            },
            "ruleset": ruleset.name,
        },
        actor.label,
        new_stream=True,
    )
    return held_transfer_view(uow, transfer_id)


def reject_transfer(uow: UnitOfWork, actor: Actor, transfer_id: str, reason: str) -> dict[str, Any]:
    actor.require(AUTHORITY)
    _pending(uow, transfer_id)
    if not reason.strip():
        raise InvalidRequestError("A rejection needs a reason.", {})
    uow.append(
        f"transfer-{transfer_id}",
        "TRANSFER_REJECTED",
        {"transfer_id": transfer_id, "reasons": [reason.strip()], "checks": []},
        actor.label,
    )
    funding.note_refund_owed(uow, actor, transfer_id)  # PRODUCT.md 8.3 closing record
    return held_transfer_view(uow, transfer_id)


def get_transfer(conn: Connection, actor: Actor, transfer_id: str) -> dict[str, Any]:
    t = transfer_view(conn, transfer_id)
    if actor.role not in (AUTHORITY, AUDITOR) and actor.party_id not in (
        t["seller_party_id"],
        t["buyer_party_id"],
    ):
        raise ForbiddenError("Only the two parties may read this transfer.", {})
    return t


def list_transfers(
    conn: Connection, actor: Actor, status: str | None, after: int | None, limit: int
) -> tuple[list[dict[str, Any]], int | None]:
    stmt = (
        select(transfers_t.c.id, transfers_t.c.created_seq)
        .order_by(transfers_t.c.created_seq)
        .limit(limit + 1)
    )
    if actor.role not in (AUTHORITY, AUDITOR):
        party = actor.party_id or ""
        stmt = stmt.where(
            or_(transfers_t.c.seller_party_id == party, transfers_t.c.buyer_party_id == party)
        )
    if status:
        stmt = stmt.where(transfers_t.c.status == status)
    if after is not None:
        stmt = stmt.where(transfers_t.c.created_seq > after)
    rows = conn.execute(stmt).all()
    kept, nxt = split_page(rows, limit, lambda r: int(r.created_seq))
    return [transfer_view(conn, r.id) for r in kept], nxt
