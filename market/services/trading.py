"""Trading: listings, offers, negotiated transfers and the Authority's decision.

The checks made when an offer or a transfer is proposed (minimum consideration CMN-5,
buyer tax types §2.7, the TECH affiliation bar TB-20, balance, no resale CMN-6) are all
made again at approval, inside the unit of work that appends the approval, together with
the TECH seller's eligibility on the date of exchange (TB-1, AMB-50). The ledger lock the
unit of work holds serialises approvals, so two approvals can never spend the same cents.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, or_, select
from sqlalchemy.engine import Connection

from market.adapters.tables import Listing, Offer, TechApplication, Transfer
from market.domain.errors import (
    AffiliatedPartiesError,
    DomainError,
    IneligibleSellerError,
    InsufficientBalanceError,
    InvalidRequestError,
    TaxTypeNotAllowedError,
)
from market.domain.programs import Program, buyer_tax_types
from market.domain.rules import consideration, resale
from market.domain.rules.affiliation import affiliation
from market.domain.rules.recapture import hq_window_end
from market.domain.rules.tech_eligibility import TechFacts, check_eligibility
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year_end, format_cents, percent_text
from market.services.actor import AUDITOR, AUTHORITY, PARTICIPANT, Actor
from market.services.certificates import certificate_status, certs_t, load_certificate
from market.services.errors import ConflictError, ForbiddenError, NotFoundError
from market.services.numbering import derived_number, new_id
from market.services.parties import load_party, ownership_graph
from market.services.uow import UnitOfWork

listings_t = Listing.__table__  # type: ignore[attr-defined]
offers_t = Offer.__table__  # type: ignore[attr-defined]
transfers_t = Transfer.__table__  # type: ignore[attr-defined]
tech_apps_t = TechApplication.__table__  # type: ignore[attr-defined]

NEW_YORK = ZoneInfo("America/New_York")


def today() -> date:
    """Ledger dates are America/New_York calendar dates (CMN-1)."""
    return datetime.now(NEW_YORK).date()


# ---- the rules, each as a named check --------------------------------------------------


def _can_sell(cert: dict[str, Any]) -> bool:
    """The holder is the business the credit was awarded to (not a buyer or an owner)."""
    return bool(
        cert["holder_party_id"] == cert["original_holder_party_id"]
        and cert["origin"] in ("issued", "allocation")
    )


def _check_balance(cert: dict[str, Any], amount_cents: int) -> None:
    if amount_cents > int(cert["balance_cents"]):
        queued = int(cert["queued_cents"])
        waiting = f" ({format_cents(queued)} more is queued and not usable yet)" if queued else ""
        raise InsufficientBalanceError(
            f"Certificate {cert['number']} has {format_cents(int(cert['balance_cents']))} "
            f"usable{waiting}; {format_cents(amount_cents)} was asked for.",
            {
                "certificate_id": cert["id"],
                "balance_cents": int(cert["balance_cents"]),
                "queued_cents": queued,
                "amount_cents": amount_cents,
            },
        )


def _check_buyer_tax_types(program: Program, buyer: dict[str, Any]) -> None:
    allowed = sorted(t.value for t in buyer_tax_types(program))
    if not set(buyer["tax_types"]) & set(allowed):
        raise TaxTypeNotAllowedError(
            f"{buyer['name']} pays none of the taxes a {program} certificate may be used "
            f"against ({', '.join(allowed)}).",
            {
                "program": program.value,
                "buyer_tax_types": list(buyer["tax_types"]),
                "allowed": allowed,
            },
        )


def _check_affiliation(
    conn: Connection, program: Program, seller_id: str, buyer_id: str, ruleset: Ruleset
) -> str:
    if program is not Program.TECH:
        return f"No buyer-seller affiliation bar applies to {program} (BR-10, UTH-25, AMB-11)."
    result = affiliation(ownership_graph(conn), seller_id, buyer_id, ruleset)
    if result.affiliated:
        raise AffiliatedPartiesError(
            "The buyer and the seller are affiliated (TB-20): " + "; ".join(result.reasons),
            {"reasons": list(result.reasons), "paths": [list(p) for p in result.paths]},
        )
    return "The buyer and the seller are not affiliated (TB-20: no common 5% owner)."


def _filed_on(conn: Connection, cert: dict[str, Any]) -> date:
    """The TECH application date behind a certificate, for the June 30 test date."""
    received = conn.execute(
        select(tech_apps_t.c.received_on).where(tech_apps_t.c.certificate_id == cert["root_id"])
    ).scalar()
    received = received or (cert.get("attributes") or {}).get("received_on")
    if received:
        return date.fromisoformat(str(received))
    return fiscal_year_end(int(cert["fiscal_year"]))


def _check_tech_seller(
    conn: Connection, cert: dict[str, Any], seller: dict[str, Any], on: date, ruleset: Ruleset
) -> str:
    missing = [
        name
        for name in ("us_employees", "nj_full_time_employees", "formed_on")
        if seller.get(name) is None
    ]
    if missing:
        raise IneligibleSellerError(
            f"The seller's {', '.join(missing)} are not on record, so its eligibility on the "
            "date of exchange cannot be shown (TB-1, AMB-50).",
            {"reasons": ["facts_missing"], "missing": missing},
        )
    facts = TechFacts(
        us_employees=int(seller["us_employees"]),
        nj_full_time_employees=int(seller["nj_full_time_employees"]),
        formed_on=date.fromisoformat(str(seller["formed_on"])),
        filed_on=_filed_on(conn, cert),
        operating_income_cents_by_year={
            int(k): int(v) for k, v in (seller.get("operating_income_cents_by_year") or {}).items()
        },
    )
    result = check_eligibility(facts, ruleset, on, at_exchange=True)
    if not result.eligible:
        raise IneligibleSellerError(
            "The seller is not eligible on the date of exchange: " + "; ".join(result.messages),
            {
                "reasons": list(result.reasons),
                "messages": list(result.messages),
                "exchange_date": on.isoformat(),
            },
        )
    return f"The seller is a new or expanding business on {on.isoformat()} (TB-1, AMB-50)."


def _check_resale(cert: dict[str, Any], ruleset: Ruleset) -> None:
    resale.check_can_sell(_can_sell(cert), ruleset)


def rule_checks(
    conn: Connection,
    cert: dict[str, Any],
    seller: dict[str, Any],
    buyer: dict[str, Any],
    amount_cents: int,
    consideration_cents: int,
    ruleset: Ruleset,
    exchange_on: date | None,
) -> tuple[list[dict[str, Any]], list[DomainError]]:
    """Every rule a transfer must pass, in words; `exchange_on` adds the at-exchange tests."""
    program = Program(cert["program"])
    price = Fraction(consideration_cents, amount_cents)

    def balance() -> str:
        _check_balance(cert, amount_cents)
        return (
            f"{format_cents(amount_cents)} is within the usable balance of "
            f"{format_cents(int(cert['balance_cents']))}; queued amounts are not usable."
        )

    def no_resale() -> str:
        _check_resale(cert, ruleset)
        return "The seller is the business the certificate was issued to (CMN-6)."

    def minimum() -> str:
        consideration.check_minimum_consideration(
            program, consideration_cents, amount_cents, ruleset
        )
        return (
            f"{format_cents(consideration_cents)} for {format_cents(amount_cents)} is "
            f"{percent_text(price)} of face; at least {ruleset.min_consideration(program)}% "
            "is required (CMN-5)."
        )

    def tax_types() -> str:
        _check_buyer_tax_types(program, buyer)
        return f"The buyer pays {', '.join(buyer['tax_types'])}, which {program} allows."

    def affiliated() -> str:
        return _check_affiliation(conn, program, seller["id"], buyer["id"], ruleset)

    steps: list[tuple[str, Callable[[], str]]] = [
        ("balance", balance),
        ("no_resale", no_resale),
        ("minimum_consideration", minimum),
        ("buyer_tax_types", tax_types),
        ("affiliation", affiliated),
    ]
    if exchange_on is not None and program is Program.TECH:
        on = exchange_on

        def eligible() -> str:
            return _check_tech_seller(conn, cert, seller, on, ruleset)

        steps.append(("seller_eligibility", eligible))
    checks: list[dict[str, Any]] = []
    failures: list[DomainError] = []
    for rule, run in steps:
        try:
            message = run()
        except DomainError as exc:
            checks.append({"rule": rule, "passed": False, "code": exc.code, "message": exc.message})
            failures.append(exc)
        else:
            checks.append({"rule": rule, "passed": True, "message": message})
    return checks, failures


def _refuse_if_failed(checks: list[dict[str, Any]], failures: list[DomainError]) -> None:
    if failures:
        first = failures[0]
        first.details = dict(first.details) | {"checks": checks}
        raise first


def _other_party(cert: dict[str, Any], buyer_party_id: str) -> None:
    if buyer_party_id == cert["holder_party_id"]:
        raise InvalidRequestError(
            "A party cannot buy its own certificate.", {"party_id": buyer_party_id}
        )


# ---- listings ------------------------------------------------------------------------


def load_listing(conn: Connection, listing_id: str) -> dict[str, Any]:
    row = conn.execute(select(listings_t).where(listings_t.c.id == listing_id)).mappings().first()
    if row is None:
        raise NotFoundError(f"Listing {listing_id} does not exist.", {"listing_id": listing_id})
    return dict(row)


def _sold_from_listing(conn: Connection, listing_id: str) -> int:
    found = conn.execute(
        select(func.coalesce(func.sum(transfers_t.c.amount_cents), 0))
        .select_from(transfers_t.join(offers_t, offers_t.c.transfer_id == transfers_t.c.id))
        .where(offers_t.c.listing_id == listing_id, transfers_t.c.status == "approved")
    ).scalar()
    return int(found or 0)


def listing_view(conn: Connection, listing_id: str, ruleset: Ruleset) -> dict[str, Any]:
    listing = load_listing(conn, listing_id)
    cert = load_certificate(conn, listing["certificate_id"])
    program = Program(cert["program"])
    sold = _sold_from_listing(conn, listing_id)
    return listing | {
        "program": program.value,
        "fiscal_year": int(cert["fiscal_year"]),
        "certificate_number": cert["number"],
        "price_per_dollar": str(Fraction(int(listing["ask_cents"]), int(listing["amount_cents"]))),
        "floor_bps": ruleset.min_consideration(program) * 100,
        "sold_cents": sold,
        "available_cents": max(0, int(listing["amount_cents"]) - sold),
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
    _check_resale(cert, ruleset)
    if amount_cents <= 0 or ask_cents < 0:
        raise InvalidRequestError(
            "amount_cents must be positive and ask_cents not negative.",
            {"amount_cents": amount_cents, "ask_cents": ask_cents},
        )
    _check_balance(cert, amount_cents)
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
    if listing["status"] != "open":
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
    more = len(rows) > limit
    rows = rows[:limit]
    items = [listing_view(conn, r.id, ruleset) for r in rows]
    return items, (int(rows[-1].created_seq) if more and rows else None)


# ---- offers --------------------------------------------------------------------------


def load_offer(conn: Connection, offer_id: str) -> dict[str, Any]:
    row = conn.execute(select(offers_t).where(offers_t.c.id == offer_id)).mappings().first()
    if row is None:
        raise NotFoundError(f"Offer {offer_id} does not exist.", {"offer_id": offer_id})
    return dict(row)


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
    _other_party(cert, buyer["id"])
    if listing["status"] != "open":
        raise ConflictError(
            f"Listing {listing_id} is {listing['status']}, not open.",
            {"listing_id": listing_id, "status": listing["status"]},
        )
    if amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {"amount_cents": amount_cents})
    available = int(listing["amount_cents"]) - _sold_from_listing(uow.conn, listing_id)
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
    _refuse_if_failed(checks, failures)
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


def offer_view(conn: Connection, offer_id: str) -> dict[str, Any]:
    offer = load_offer(conn, offer_id)
    offer["price_per_dollar"] = str(Fraction(int(offer["price_cents"]), int(offer["amount_cents"])))
    if offer["transfer_id"]:
        offer["transfer"] = transfer_view(conn, offer["transfer_id"])
    return offer


def _open_offer_for_seller(uow: UnitOfWork, actor: Actor, offer_id: str) -> dict[str, Any]:
    offer = load_offer(uow.conn, offer_id)
    actor.require_party(offer["seller_party_id"])
    if offer["status"] != "open":
        raise ConflictError(
            f"Offer {offer_id} is {offer['status']}, not open.",
            {"offer_id": offer_id, "status": offer["status"]},
        )
    return offer


def accept_offer(uow: UnitOfWork, actor: Actor, offer_id: str, ruleset: Ruleset) -> dict[str, Any]:
    offer = _open_offer_for_seller(uow, actor, offer_id)
    listing = load_listing(uow.conn, offer["listing_id"])
    if listing["status"] != "open":
        raise ConflictError(
            f"Listing {listing['id']} is {listing['status']}, not open.",
            {"listing_id": listing["id"], "status": listing["status"]},
        )
    cert = load_certificate(uow.conn, offer["certificate_id"])
    _check_balance(cert, int(offer["amount_cents"]))
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
    )
    return offer_view(uow.conn, offer_id)


def decline_offer(uow: UnitOfWork, actor: Actor, offer_id: str) -> dict[str, Any]:
    offer = _open_offer_for_seller(uow, actor, offer_id)
    uow.append(
        f"listing-{offer['listing_id']}",
        "OFFER_DECLINED",
        {"offer_id": offer_id, "listing_id": offer["listing_id"]},
        actor.label,
    )
    return offer_view(uow.conn, offer_id)


# ---- transfers -----------------------------------------------------------------------


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
) -> None:
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
        },
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
) -> dict[str, Any]:
    """A negotiated transfer (no listing), awaiting the Authority's approval."""
    cert = load_certificate(uow.conn, certificate_id)
    actor.require_party(cert["holder_party_id"])
    buyer = load_party(uow.conn, buyer_party_id)
    _other_party(cert, buyer_party_id)
    if amount_cents <= 0:
        raise InvalidRequestError("amount_cents must be positive.", {"amount_cents": amount_cents})
    seller = load_party(uow.conn, cert["holder_party_id"])
    checks, failures = rule_checks(
        uow.conn, cert, seller, buyer, amount_cents, consideration_cents, ruleset, None
    )
    _refuse_if_failed(checks, failures)
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
    )
    return transfer_view(uow.conn, transfer_id)


def load_transfer(conn: Connection, transfer_id: str) -> dict[str, Any]:
    row = (
        conn.execute(select(transfers_t).where(transfers_t.c.id == transfer_id)).mappings().first()
    )
    if row is None:
        raise NotFoundError(f"Transfer {transfer_id} does not exist.", {"transfer_id": transfer_id})
    return dict(row)


def transfer_view(conn: Connection, transfer_id: str) -> dict[str, Any]:
    t = load_transfer(conn, transfer_id)
    ratio = Fraction(int(t["consideration_cents"]), int(t["amount_cents"]))
    return t | {"price_per_dollar": str(ratio)}


def _pending(conn: Connection, transfer_id: str) -> dict[str, Any]:
    t = load_transfer(conn, transfer_id)
    if t["status"] != "pending_approval":
        raise ConflictError(
            f"Transfer {transfer_id} is already {t['status']}.",
            {"transfer_id": transfer_id, "status": t["status"]},
        )
    return t


def _split_tranches(periods: list[Any], amount_cents: int) -> tuple[list[Any], list[Any]]:
    """UTH: the buyer takes the earliest unsold installments first. Returns the seller's
    tranches afterwards and the buyer's. Other programs' periods are copied as they are."""
    if not periods or not isinstance(periods[0], dict):
        return list(periods), list(periods)
    left = amount_cents
    seller: list[Any] = []
    buyer: list[Any] = []
    for tranche in periods:
        take = min(left, int(tranche["unsold_cents"]))
        seller.append(tranche | {"unsold_cents": int(tranche["unsold_cents"]) - take})
        if take:
            buyer.append(tranche | {"cents": take, "unsold_cents": 0})
            left -= take
    return seller, buyer


def approve_transfer(
    uow: UnitOfWork,
    actor: Actor,
    transfer_id: str,
    ruleset: Ruleset,
    exchange_on: date | None = None,
) -> dict[str, Any]:
    """Re-check every rule on the current state; refuse (writing nothing) or approve."""
    actor.require(AUTHORITY)
    t = _pending(uow.conn, transfer_id)
    on = exchange_on or today()
    cert = load_certificate(uow.conn, t["certificate_id"])
    seller = load_party(uow.conn, t["seller_party_id"])
    buyer = load_party(uow.conn, t["buyer_party_id"])
    amount = int(t["amount_cents"])
    checks, failures = rule_checks(
        uow.conn, cert, seller, buyer, amount, int(t["consideration_cents"]), ruleset, on
    )
    checks.append(
        {
            "rule": "caps",
            "passed": True,
            "message": "Caps and pools were charged when the certificate was issued; "
            "a transfer moves credit and charges none again (CMN-4(c)).",
        }
    )
    _refuse_if_failed(checks, failures)
    program = Program(cert["program"])
    seller_periods, buyer_periods = _split_tranches(list(cert["tax_periods"]), amount)
    listing_id, listing_status = None, None
    if t["offer_id"]:
        offer = load_offer(uow.conn, t["offer_id"])
        listing = load_listing(uow.conn, offer["listing_id"])
        listing_id = listing["id"]
        sold = _sold_from_listing(uow.conn, listing_id) + amount
        listing_status = "sold" if sold >= int(listing["amount_cents"]) else listing["status"]
    buyer_cert_id = new_id("crt")
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
            "number": derived_number(uow.conn, cert["id"], cert["number"], "T"),
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
            },
            "ruleset": ruleset.name,
        },
        actor.label,
        new_stream=True,
    )
    return transfer_view(uow.conn, transfer_id)


def reject_transfer(uow: UnitOfWork, actor: Actor, transfer_id: str, reason: str) -> dict[str, Any]:
    actor.require(AUTHORITY)
    _pending(uow.conn, transfer_id)
    if not reason.strip():
        raise InvalidRequestError("A rejection needs a reason.", {})
    uow.append(
        f"transfer-{transfer_id}",
        "TRANSFER_REJECTED",
        {"transfer_id": transfer_id, "reasons": [reason.strip()], "checks": []},
        actor.label,
    )
    return transfer_view(uow.conn, transfer_id)


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
    more = len(rows) > limit
    rows = rows[:limit]
    return [transfer_view(conn, r.id) for r in rows], (
        int(rows[-1].created_seq) if more and rows else None
    )
