"""Urban Transit Hub installments, reductions, caps and carryforward
(UTH-7, UTH-8, UTH-9, UTH-10, UTH-11, UTH-12, UTH-13, UTH-24, UTH-26, AMB-13, AMB-14,
AMB-15)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from market.domain.errors import InvalidRequestError
from market.domain.rules.caps import check_cap
from market.domain.rulesets import Ruleset
from market.domain.values import fiscal_year

# UTH-11: a shortfall of new positions cuts the installment; the other findings forfeit it.
REDUCTIONS: frozenset[str] = frozenset({"none", "new_positions_below_200"})
FORFEITURES: frozenset[str] = frozenset(
    {
        "late_documentation",
        "statewide_workforce_drop",
        "facility_fte_below_250",
        "other_facility_drop",
        "facility_sold",
    }
)


def installments(total_cents: int, first_period: int, ruleset: Ruleset) -> list[tuple[int, int]]:
    """Equal shares per tax period; the cents that do not divide evenly go on the last one."""
    if total_cents < 0:
        raise InvalidRequestError("a credit must not be negative", {"total_cents": total_cents})
    fraction = ruleset.uth_installment_fraction
    count = fraction.denominator // fraction.numerator
    share = total_cents * fraction.numerator // fraction.denominator
    amounts = [share] * count
    amounts[-1] += total_cents - share * count
    return [(first_period + i, cents) for i, cents in enumerate(amounts)]


def reduced_installment(cents: int, reduction: str, ruleset: Ruleset | None = None) -> int:
    """The usable installment after the annual review; usable amounts round down."""
    if reduction == "none":
        return cents
    if reduction == "new_positions_below_200":
        pct = ruleset.uth_reduction_pct if ruleset is not None else 20
        return cents * (100 - pct) // 100
    if reduction in FORFEITURES:
        return 0
    raise InvalidRequestError(
        f"unknown UTH reduction {reduction!r}",
        {"reduction": reduction, "known": sorted(REDUCTIONS | FORFEITURES)},
    )


def tenant_installment(cents: int, lease_payments_cents: int) -> int:
    """UTH-9: a tenant's installment never exceeds its lease payments for the period."""
    return min(cents, max(0, lease_payments_cents))


def bucket_fiscal_year(period_commences_on: date, approved_on: date, ruleset: Ruleset) -> int:
    """UTH-13 / AMB-13: an installment counts in the FY its credited period commences."""
    if ruleset.uth_fy_bucket == "approval":
        return fiscal_year(approved_on)
    return fiscal_year(period_commences_on)


def check_fy_cap(used_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    check_cap("UTH", ruleset.uth_fy_cap_cents, used_cents, amount_cents)


def check_cumulative_cap(used_cents: int, amount_cents: int, ruleset: Ruleset) -> None:
    check_cap("UTH_CUMULATIVE", ruleset.uth_cumulative_cap_cents, used_cents, amount_cents)


def carryforward_last_period(first_usable_period: int, ruleset: Ruleset) -> int:
    """The 20 successive periods after the first usable one (AMB-15), as a period index."""
    return first_usable_period + ruleset.uth_carryforward_periods


# ---- annual review (UTH-7, UTH-11, UTH-26, AMB-14) ------------------------------------

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
    effect = ruleset.uth_transferred_tranche_effect
    if effect not in TRANSFERRED_TRANCHE_EFFECTS:
        raise InvalidRequestError(
            f"unknown uth_transferred_tranche_effect {effect!r}",
            {"effect": effect, "known": sorted(TRANSFERRED_TRANCHE_EFFECTS)},
        )
    return effect == "freeze"


def tranche_unapplied(tranche: Mapping[str, Any]) -> int:
    """A held tranche's cents not yet used on a return."""
    return max(0, int(tranche["cents"]) - int(tranche.get("applied_cents", 0)))


def frozen_cents(tranches: Sequence[Mapping[str, Any]]) -> int:
    """UTH-26: what a holder may not apply while its tranches are frozen."""
    return sum(tranche_unapplied(t) for t in tranches if t.get("frozen"))


def frozen_periods(tranches: Sequence[Mapping[str, Any]]) -> list[int]:
    return [int(t["period"]) for t in tranches if t.get("frozen") and tranche_unapplied(t)]


def consume_tranches(
    tranches: Sequence[Mapping[str, Any]], amount_cents: int
) -> list[dict[str, Any]]:
    """A credit application uses the earliest unfrozen tranches first; each tranche
    records its `applied_cents`. What no tranche can take is left unrecorded."""
    left = amount_cents
    out: list[dict[str, Any]] = []
    for tranche in tranches:
        row = dict(tranche)
        if left > 0 and not tranche.get("frozen"):
            take = min(left, tranche_unapplied(tranche))
            if take:
                row["applied_cents"] = int(tranche.get("applied_cents", 0)) + take
                left -= take
        out.append(row)
    return out
