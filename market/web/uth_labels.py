"""The UTH annual review findings and states in words (UTH-8, UTH-11, UTH-26, UTH-27)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.domain.rules import uth_review
from market.domain.rulesets import Ruleset

# What each finding found, in words, for a sentence ("the review found ..."); the size of
# the cut is the ruleset's (finding_labels) and the event's.
FINDING_WORDS = {
    "approved": "the commitments met",
    "new_positions_below_200": "fewer than 200 new positions (UTH-11(1))",
    "statewide_workforce_drop": "the statewide workforce down by more than 20% (UTH-11(2))",
    "facility_fte_below_250": "fewer than 250 full-time employees at the facility (UTH-11(3))",
    "other_facility_drop": (
        "another New Jersey facility's workforce down by more than 20% (UTH-11(3))"
    ),
    "late_documentation": "the documentation still unapproved in time (UTH-8)",
    "facility_sold": "the facility sold (UTH-11(4))",
    "restored": "the commitments met again (UTH-11)",
}


def finding_words(finding: object) -> str:
    """A finding code in words; a code this page does not know, with its underscores as
    spaces."""
    code = str(finding or "")
    return FINDING_WORDS.get(code) or code.replace("_", " ")


def finding_labels(ruleset: Ruleset) -> dict[str, str]:
    """Every finding `domain.rules.uth.FINDINGS` allows, in words, in the order of the form."""
    return {
        "approved": "Approved",
        "new_positions_below_200": (
            f"Fewer than 200 new positions: cut {ruleset.uth_reduction_pct}% (UTH-11(1))"
        ),
        "statewide_workforce_drop": (
            "Forfeited: statewide workforce fell by more than 20% (UTH-11(2))"
        ),
        "facility_fte_below_250": (
            "Forfeited: fewer than 250 full-time employees at the facility (UTH-11(3))"
        ),
        "other_facility_drop": (
            "Forfeited: another New Jersey facility's workforce fell by more than 20% (UTH-11(3))"
        ),
        "late_documentation": "Forfeited: documentation still unapproved in time (UTH-8)",
        "facility_sold": (
            "Forfeited for good: facility sold; this period and every later one (UTH-11(4))"
        ),
        "restored": "Restored (UTH-11)",
    }


def review_state(tranche: Mapping[str, Any]) -> str:
    """A tranche's review in one word. A buyer's tranche carries the award's review as it
    was when bought; a later finding on the award shows through `at_risk` (UTH-26)."""
    if tranche.get("at_risk") and tranche.get("at_risk_finding"):
        return uth_review.review_outcome(str(tranche["at_risk_finding"]))
    if tranche.get("restored"):
        return "restored"
    if tranche.get("conditional"):
        return "conditional: not reviewed yet, not usable until it is (UTH-27)"
    return str(tranche.get("review") or "not reviewed")
