"""The transfer decisions (PRODUCT.md 8.2), pure: the buyer's consent and the Authority's
approval, each from its command and the facts loaded under the ledger head.

Approval re-runs every rule check (market.domain.rules.transfer_checks) on the state at
the exchange and, if all pass, moves the credit: TransferApproved on the transfer's
stream and the buyer's certificate issued from the seller's (CMN-4(c): caps were charged
at issue and are not charged again). UTH buyers take the earliest unsold installments,
unreviewed ones as conditional tranches (UTH-27, AMB-18)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from market.domain.commands.trading import ApproveTransfer
from market.domain.deciders import Append
from market.domain.errors import InvalidRequestError
from market.domain.events.certificates import CertificateIssued, Parent, certificate_issued
from market.domain.events.trading import (
    TransferApproved,
    TransferConfirmed,
    TransferDeclined,
    TransferRejected,
)
from market.domain.model import Certificate, Transfer
from market.domain.programs import Program, buyer_tax_types
from market.domain.rules import uth_sales
from market.domain.rules.certificate_status import certificate_status
from market.domain.rules.recapture import hq_window_end
from market.domain.rules.transfer_checks import Sale, SaleFacts, at_exchange, run
from market.domain.rulesets import Ruleset

CAPS_CHECK = {
    "rule": "caps",
    "passed": True,
    "message": "Caps and pools were charged when the certificate was issued; "
    "a transfer moves credit and charges none again (CMN-4(c)).",
}


@dataclass(frozen=True)
class ListingSold:
    """The listing an offer-made transfer sells from: its size and what was sold before."""

    id: str
    amount_cents: int
    status: str
    sold_cents: int

    def status_after(self, amount_cents: int) -> str:
        return "sold" if self.sold_cents + amount_cents >= self.amount_cents else self.status


@dataclass(frozen=True)
class ApprovalFacts:
    transfer: Transfer
    sale: SaleFacts
    listing: ListingSold | None
    activity_ids: tuple[str, ...]
    buyer_certificate_id: str  # chosen by the use case: ids are not the rules' to draw
    today: date


def decide_confirmation(
    transfer: Transfer, facts: SaleFacts, ruleset: Ruleset, today: date
) -> Append:
    """The buyer's consent, once the rules a proposal passes pass again today."""
    checks = run(Sale(transfer.amount_cents, transfer.consideration_cents, today), facts, ruleset)
    checks.refuse_if_failed()
    event = TransferConfirmed(
        transfer_id=transfer.id, buyer_party_id=transfer.buyer_party_id, checks=list(checks.rows)
    )
    return Append(transfer.stream, event)


def decide_decline(transfer: Transfer, reason: str | None) -> Append:
    """The buyer refuses a negotiated transfer it has not confirmed (PRODUCT.md 8.2)."""
    reasons = [reason.strip()] if reason and reason.strip() else []
    event = TransferDeclined(
        transfer_id=transfer.id, buyer_party_id=transfer.buyer_party_id, reasons=reasons
    )
    return Append(transfer.stream, event)


def decide_rejection(transfer: Transfer, reason: str) -> Append:
    """The Authority refuses a transfer, before or after the buyer's confirmation; the
    reason is the one word the parties will read, so it is required."""
    if not reason.strip():
        raise InvalidRequestError("A rejection needs a reason.", {})
    event = TransferRejected(transfer_id=transfer.id, reasons=[reason.strip()], checks=[])
    return Append(transfer.stream, event)


def _split_tranches(cert: Certificate, amount_cents: int) -> tuple[list[Any], list[Any]]:
    """UTH: the buyer takes the earliest unsold installments first, unreviewed ones as
    `conditional` tranches. Other programs' periods are copied to both."""
    tranches = cert.uth_tranches()
    if tranches is None:
        return list(cert.tax_periods), list(cert.tax_periods)
    return uth_sales.split_tranches(tranches, amount_cents)


def decide_approval(
    command: ApproveTransfer, facts: ApprovalFacts, ruleset: Ruleset
) -> list[Append]:
    """Approve (two appends) or refuse with every check in `details.checks`."""
    t, cert = facts.transfer, facts.sale.certificate
    on = command.exchange_on or facts.today
    checks = run(at_exchange(t, on), facts.sale, ruleset).and_passed(CAPS_CHECK)
    checks.refuse_if_failed()
    seller_periods, buyer_periods = _split_tranches(cert, t.amount_cents)
    approved = TransferApproved(
        transfer_id=t.id,
        certificate_id=cert.id,
        amount_cents=t.amount_cents,
        consideration_cents=t.consideration_cents,
        buyer_certificate_id=facts.buyer_certificate_id,
        exchange_date=on.isoformat(),
        hq_window_end=(
            hq_window_end(on, ruleset).isoformat() if cert.program is Program.TECH else None
        ),
        checks=list(checks.rows),
        seller_status=certificate_status(
            cert.allowed_cents, cert.balance_cents - t.amount_cents, cert.queued_cents
        ),
        seller_tax_periods=seller_periods,
        listing_id=None if facts.listing is None else facts.listing.id,
        listing_status=None
        if facts.listing is None
        else facts.listing.status_after(t.amount_cents),
    )
    return [
        Append(t.stream, approved),
        Append(
            Certificate.stream_of(facts.buyer_certificate_id),
            _buyer_certificate(facts, buyer_periods, on, ruleset),
            new_stream=True,
        ),
    ]


def _buyer_certificate(
    facts: ApprovalFacts, periods: list[Any], on: date, ruleset: Ruleset
) -> CertificateIssued:
    t, cert = facts.transfer, facts.sale.certificate
    return certificate_issued(
        certificate_id=facts.buyer_certificate_id,
        number=cert.derived_number("T"),
        program=cert.program.value,
        holder_party_id=t.buyer_party_id,
        origin="transfer",
        parent=Parent(cert.id, cert.root_id, cert.original_holder_party_id),
        face_cents=t.amount_cents,
        fiscal_year=cert.fiscal_year,
        tax_types=sorted(tax.value for tax in buyer_tax_types(cert.program)),
        tax_periods=periods,
        credit_year=cert.credit_year,
        carryover_last_year=cert.carryover_last_year,
        waiver_statement=cert.waiver_statement,
        creditable_activity_ids=list(facts.activity_ids),
        attributes={
            "transfer_id": t.id,
            "seller_party_id": t.seller_party_id,
            "consideration_cents": t.consideration_cents,
            "exchange_date": on.isoformat(),
        },
        ruleset=ruleset.name,
    )
