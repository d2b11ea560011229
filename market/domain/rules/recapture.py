"""Recapture routing and the headquarters window (CMN-9, BR-13, DMG-10, DMC-12, TB-40,
AMB-26, AMB-46, AMB-47)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from market.domain.errors import RecaptureNotAllowedError
from market.domain.programs import Program, TaxType
from market.domain.rulesets import Ruleset
from market.domain.values import add_years

Fund = Literal["general_fund", "property_tax_relief_fund"]


def recapture_fund(program: Program, tax_type: TaxType) -> Fund:
    """``tax_type`` is the seller's regime; the digital media sections fix the fund themselves."""
    if program is Program.DM_GIT:
        return "property_tax_relief_fund"
    if program is Program.DM_CBT:
        return "general_fund"
    # BR-13 sends recaptured GIT credits to the Property Tax Relief Fund; UTH and TECH follow it.
    return "property_tax_relief_fund" if tax_type is TaxType.GIT else "general_fund"


def check_assessed_on_the_business(
    party_id: str, business_id: str | None, certificate_is_original: bool | None
) -> None:
    """BR-13, AMB-10, TB-40: recapture is assessed on the business the credit was issued
    to, never on a buyer. `business_id` is the certificate's original holder (None: no
    certificate named, and the party is the business iff it was issued one)."""
    if certificate_is_original is False:
        raise RecaptureNotAllowedError(
            "A recapture is assessed on the business the credit was issued to, never on a "
            "buyer (BR-13, AMB-10, TB-40): name the business's own certificate, not one a "
            "buyer holds; the buyer keeps what it bought.",
            {"reason": "buyer_certificate"},
        )
    if business_id is None or party_id != business_id:
        raise RecaptureNotAllowedError(
            "A recapture is assessed on the business the credit was issued to, never on a "
            "buyer (BR-13, AMB-10, TB-40); this party is not that business.",
            {"reason": "not_the_business", "party_id": party_id, "business_id": business_id},
        )


def check_fund_tax_type(asked: TaxType, business_tax_types: list[str]) -> None:
    """BR-13: the fund follows the business's tax type: a tax type it does not file cannot
    choose the fund."""
    if asked.value not in business_tax_types:
        raise RecaptureNotAllowedError(
            f"The fund follows the business's tax type (BR-13): it files "
            f"{', '.join(business_tax_types) or 'no tax'}, not {asked.value}.",
            {"tax_type": asked.value, "business_tax_types": list(business_tax_types)},
        )


def hq_window_end(pfa_received_on: date, ruleset: Ruleset) -> date:
    """Last day of the window that starts on this transfer's PFA receipt (one window each)."""
    return add_years(pfa_received_on, ruleset.tech_hq_years)


def check_hq_recapture(window_end: date, occurred_on: date, liquidation: bool) -> None:
    """TB-40(b): a seller that stops keeping its NJ headquarters within 5 years of receiving
    the PFA may be recaptured, unless the failure results from its liquidation. Each
    transfer has its own window (AMB-47), so the check is per transfer."""
    if liquidation:
        raise RecaptureNotAllowedError(
            "A failure to keep the headquarters that results from the business's liquidation "
            "is not grounds for recapture (TB-40).",
            {"exception": "liquidation"},
        )
    if occurred_on > window_end:
        raise RecaptureNotAllowedError(
            f"The headquarters window for this transfer ended on {window_end.isoformat()}; "
            f"a failure on {occurred_on.isoformat()} is outside it (TB-40, AMB-47).",
            {"window_end": window_end.isoformat(), "occurred_on": occurred_on.isoformat()},
        )
