"""ADM-1..ADM-4: the Authority's fees, in integer cents, with exact rates.

ADM-1 (N.J.A.C. 19:31K-1.4(a)): a TECH seller's application carries a $1,000 fee, never
refunded. ADM-2 (NJEDA program terms): on a TECH award over $100,000 an approval fee of
1% of the final award, the application fee credited toward it, the two together at most
$20,000. ADM-3 (N.J.A.C. 19:31H-1.6): UTH's $5,000 application fee, 0.5% of the approved
credit at approval and again before the certificate (each at most $300,000), $2,500 of
annual review and $2,500 for a transfer certificate application.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import floor

from market.domain.rulesets import Ruleset

TECH_APPLICATION = "tech_application"
TECH_APPROVAL = "tech_approval"
UTH_APPLICATION = "uth_application"
UTH_APPROVAL = "uth_approval"
UTH_CERTIFICATE = "uth_certificate"
UTH_ANNUAL_REVIEW = "uth_annual_review"
UTH_TRANSFER = "uth_transfer"


@dataclass(frozen=True)
class Invoice:
    """What a step invoices: `amount_cents` owed before credits, `credited_cents` of it
    met by an earlier fee, and the reason in words."""

    kind: str
    program: str
    amount_cents: int
    credited_cents: int
    reason: str


def _cents(rate: Fraction, base_cents: int) -> int:
    return floor(rate * base_cents)


def tech_application_fee(ruleset: Ruleset) -> Invoice:
    fee = ruleset.adm_tech_application_fee_cents
    return Invoice(
        TECH_APPLICATION,
        "TECH",
        fee,
        0,
        f"ADM-1: the TECH application fee of {fee} cents, never refunded.",
    )


def tech_approval_fee(
    award_cents: int, application_fee_paid_cents: int, ruleset: Ruleset
) -> Invoice | None:
    """ADM-2: None for an award of $100,000 or less. The fee is 1% of the award within the
    cap; the application fee already paid is credited (never more than the fee)."""
    if award_cents <= ruleset.adm_tech_approval_fee_over_cents:
        return None
    gross = min(
        _cents(ruleset.adm_tech_approval_fee_rate, award_cents), ruleset.adm_tech_fees_cap_cents
    )
    credited = min(application_fee_paid_cents, gross)
    return Invoice(
        TECH_APPROVAL,
        "TECH",
        gross,
        credited,
        f"ADM-2: {ruleset.adm_tech_approval_fee_rate} of the award of {award_cents} cents, "
        f"at most {ruleset.adm_tech_fees_cap_cents} cents with the application fee, which "
        f"is credited ({credited} cents).",
    )


def uth_percentage_fee(kind: str, approved_cents: int, ruleset: Ruleset) -> Invoice:
    """ADM-3: the 0.5% UTH fee at approval (`uth_approval`) or before the certificate
    (`uth_certificate`), each capped."""
    amount = min(
        _cents(ruleset.adm_uth_approval_fee_rate, approved_cents),
        ruleset.adm_uth_approval_fee_cap_cents,
    )
    return Invoice(
        kind,
        "UTH",
        amount,
        0,
        f"ADM-3: {ruleset.adm_uth_approval_fee_rate} of the approved credit of "
        f"{approved_cents} cents, at most {ruleset.adm_uth_approval_fee_cap_cents} cents.",
    )


def uth_flat_fee(kind: str, ruleset: Ruleset) -> Invoice:
    amounts = {
        UTH_APPLICATION: ruleset.adm_uth_application_fee_cents,
        UTH_ANNUAL_REVIEW: ruleset.adm_uth_annual_review_fee_cents,
        UTH_TRANSFER: ruleset.adm_uth_transfer_fee_cents,
    }
    amount = amounts[kind]
    return Invoice(kind, "UTH", amount, 0, f"ADM-3: the UTH {kind} fee of {amount} cents.")


def due_cents(amount_cents: int, credited_cents: int, paid_cents: int) -> int:
    """ADM-4: what the fee still owes."""
    return max(amount_cents - credited_cents - paid_cents, 0)


def status(amount_cents: int, credited_cents: int, paid_cents: int) -> str:
    if due_cents(amount_cents, credited_cents, paid_cents) == 0:
        return "paid"
    return "partly_paid" if paid_cents > 0 else "unpaid"
