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
