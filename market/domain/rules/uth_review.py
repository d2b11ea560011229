"""The UTH annual review: what a finding does to a period's installments and to tranches
already transferred (UTH-7, UTH-11, UTH-26, AMB-14).
"""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.errors import InvalidRequestError
from market.domain.rules.uth import FORFEITURES, REDUCTIONS, reduced_installment
from market.domain.rulesets import Ruleset

# UTH-11(4): a facility sale forfeits that period and all later ones, for good.
PERMANENT_FORFEITURES: frozenset[str] = frozenset({"facility_sold"})


# What an annual review may record: `approved` (the statute's "none"), a UTH-11 reduction
# or forfeiture, or `restored` ("until restoration is approved").
FINDINGS: frozenset[str] = (
    frozenset({"approved", "restored"}) | (REDUCTIONS - {"none"}) | FORFEITURES
)


TRANSFERRED_TRANCHE_EFFECTS: frozenset[str] = frozenset({"freeze", "buyer_protected"})


def review_outcome(finding: str) -> str:
    """The review status a finding gives the tranche: approved, reduced, forfeited or
    restored."""
    if finding not in FINDINGS:
        raise InvalidRequestError(
            f"{finding!r} is not a finding (unknown UTH review finding); the findings are "
            f"{', '.join(sorted(FINDINGS))}.",
            {"finding": finding, "known": sorted(FINDINGS)},
        )
    if finding in ("approved", "restored"):
        return finding
    return "forfeited" if finding in FORFEITURES else "reduced"


def review_cut(unsold_cents: int, cut_cents: int, finding: str, ruleset: Ruleset) -> int:
    """The cents a finding takes off the still-unsold part of a tranche, on top of what
    earlier reviews of the period already took (`cut_cents`): the finding is measured on
    the unsold amount before any cut, and a cut is never given back here (it is at least 0
    and at most what is unsold)."""
    outcome = review_outcome(finding)
    if outcome in ("approved", "restored"):
        return 0
    target = reduced_installment(unsold_cents + cut_cents, finding, ruleset)
    return max(0, min(unsold_cents, unsold_cents - target))


def reviewed_periods(finding: str, period: int, periods: Sequence[int]) -> list[int]:
    """The tranches a finding reaches: a facility sale forfeits that period and all later
    ones (UTH-11(4)); every other finding is the reviewed period's alone."""
    if finding in PERMANENT_FORFEITURES:
        return [p for p in periods if p >= period]
    return [period]


def freezes_transferred_tranches(ruleset: Ruleset) -> bool:
    """AMB-14: "freeze" (default) or "buyer_protected"."""
    effect = ruleset.reading("uth_transferred_tranche_effect", TRANSFERRED_TRANCHE_EFFECTS)
    return effect == "freeze"
