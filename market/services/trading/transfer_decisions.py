"""The Authority's decision on a transfer: approve or reject. Approval re-checks every rule
inside the unit of work that appends it, holding the ledger head (every writer takes it
first: one writer at a time), so two approvals can never spend the same cents.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from market.domain.errors import (
    InvalidRequestError,
)
from market.domain.events.certificates import Parent, certificate_issued
from market.domain.events.trading import TransferApproved, TransferRejected
from market.domain.programs import Program, buyer_tax_types
from market.domain.rules import uth_sales
from market.domain.rules.certificate_status import certificate_status
from market.domain.rules.recapture import hq_window_end
from market.domain.rulesets import Ruleset
from market.services.casefiles import gates
from market.services.certificates import halts
from market.services.certificates.certificate_views import activity_ids_of, uth_tranches
from market.services.kernel import reads
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.numbering import derived_number, new_id
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import load_party_pair
from market.services.trading import funding
from market.services.trading.rule_checks import refuse_if_failed, rule_checks, today
from market.services.trading.trade_views import (
    held_transfer_view,
    load_listing,
    load_offer,
    sold_from_listing,
)
from market.services.trading.transfers import pending_transfer, undecided_transfer


def _split_tranches(cert: dict[str, Any], amount_cents: int) -> tuple[list[Any], list[Any]]:
    """UTH: the buyer takes the earliest unsold installments first, unreviewed ones as
    `conditional` tranches (uth_sales.split_tranches). Other programs' periods are copied."""
    tranches = uth_tranches(cert)
    if tranches is None:
        return list(cert["tax_periods"]), list(cert["tax_periods"])
    return uth_sales.split_tranches(tranches, amount_cents)


def approve_transfer(
    uow: AbstractUnitOfWork,
    actor: Actor,
    transfer_id: str,
    ruleset: Ruleset,
    exchange_on: date | None = None,
) -> dict[str, Any]:
    """Re-check every rule on the current state; refuse (writing nothing) or approve.
    The unit of work holds the ledger head, so the state read here stays put until commit."""
    actor.require(AUTHORITY)
    t = pending_transfer(uow, transfer_id)
    on = exchange_on or today()
    listing: dict[str, Any] | None = None
    if t["offer_id"]:
        offer = load_offer(uow, t["offer_id"])
        listing = load_listing(uow, offer["listing_id"])
    cert = reads.certificate(uow, t["certificate_id"])
    halts.check_not_halted(uow, cert)  # PRODUCT.md 8.3 trading halts
    funding.check_funded(uow, t, ruleset)  # PRODUCT.md 8.3 closing record
    gates.check_final_approval(uow, t, cert, ruleset, on)  # ADM-8, ADM-12: at closing
    uow.transfers.remember(t)
    uow.certificates.remember(cert)
    seller, buyer = load_party_pair(uow, t["seller_party_id"], t["buyer_party_id"])
    amount = int(t["amount_cents"])
    checks, failures = rule_checks(
        uow,
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
        sold = sold_from_listing(uow, listing_id) + amount
        listing_status = "sold" if sold >= int(listing["amount_cents"]) else listing["status"]
    buyer_cert_id = new_id("crt")
    # Numbered before the first append: the certificate's row lock keeps it unique.
    buyer_number = derived_number(cert, "T")
    balance_after = int(cert["balance_cents"]) - amount
    uow.append(
        f"transfer-{transfer_id}",
        TransferApproved(
            transfer_id=transfer_id,
            certificate_id=cert["id"],
            amount_cents=amount,
            consideration_cents=int(t["consideration_cents"]),
            buyer_certificate_id=buyer_cert_id,
            exchange_date=on.isoformat(),
            hq_window_end=(
                hq_window_end(on, ruleset).isoformat() if program is Program.TECH else None
            ),
            checks=checks,
            seller_status=certificate_status(
                int(cert["allowed_cents"]), balance_after, int(cert["queued_cents"])
            ),
            seller_tax_periods=seller_periods,
            listing_id=listing_id,
            listing_status=listing_status,
        ),
        actor.label,
    )
    uow.append(
        f"certificate-{buyer_cert_id}",
        certificate_issued(
            certificate_id=buyer_cert_id,
            number=buyer_number,
            program=program.value,
            holder_party_id=t["buyer_party_id"],
            origin="transfer",
            parent=Parent.of(cert),
            face_cents=amount,
            fiscal_year=int(cert["fiscal_year"]),
            tax_types=sorted(t_.value for t_ in buyer_tax_types(program)),
            tax_periods=buyer_periods,
            credit_year=cert["credit_year"],
            carryover_last_year=cert["carryover_last_year"],
            waiver_statement=cert["waiver_statement"],
            creditable_activity_ids=activity_ids_of(uow, cert),
            attributes={
                "transfer_id": transfer_id,
                "seller_party_id": t["seller_party_id"],
                "consideration_cents": int(t["consideration_cents"]),
                "exchange_date": on.isoformat(),
            },
            ruleset=ruleset.name,
        ),
        actor.label,
        new_stream=True,
    )
    return held_transfer_view(uow, transfer_id)


def reject_transfer(
    uow: AbstractUnitOfWork, actor: Actor, transfer_id: str, reason: str
) -> dict[str, Any]:
    """The Authority refuses a transfer, before or after the buyer's confirmation."""
    actor.require(AUTHORITY)
    undecided_transfer(uow, transfer_id, ("awaiting_buyer", "pending_approval"))
    if not reason.strip():
        raise InvalidRequestError("A rejection needs a reason.", {})
    uow.append(
        f"transfer-{transfer_id}",
        TransferRejected(transfer_id=transfer_id, reasons=[reason.strip()], checks=[]),
        actor.label,
    )
    funding.note_refund_owed(uow, actor, transfer_id)  # PRODUCT.md 8.3 closing record
    return held_transfer_view(uow, transfer_id)
