"""Urban Transit Hub installments, reductions, caps and carryforward
(UTH-7, UTH-8, UTH-9, UTH-10, UTH-11, UTH-12, UTH-13, UTH-24, UTH-26, UTH-27, AMB-13,
AMB-14, AMB-15, AMB-18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from market.domain.errors import InvalidRequestError, TrancheNotReviewedError
from market.domain.rules.caps import check_cap
from market.domain.rules.pass_through import split_exact
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
    """One tenth per tax period (UTH-7), exact to the cent (CMN-2): each installment is the
    share rounded down, and the leftover cents go one each to the earliest installments
    (every remainder is equal, so the tie goes to the earlier period), so no installment is
    more than a cent above another and none exceeds the FY cap that the total fits ten times."""
    if total_cents < 0:
        raise InvalidRequestError("a credit must not be negative", {"total_cents": total_cents})
    fraction = ruleset.uth_installment_fraction
    count = fraction.denominator // fraction.numerator
    share, leftover = divmod(total_cents, count)
    amounts = [share + (1 if i < leftover else 0) for i in range(count)]
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


def period_commences_on(period: int, ruleset: Ruleset, start_month: int | None = None) -> date:
    """UTH-13: the first day of tax period `period`, a year beginning in `start_month` (the
    holder's) or the ruleset's `uth_period_start_month` (calendar-year filers)."""
    month = start_month if start_month is not None else ruleset.uth_period_start_month
    if not 1 <= month <= 12:
        raise InvalidRequestError(
            "a tax year begins in a month from 1 to 12", {"tax_period_start_month": month}
        )
    return date(period, month, 1)


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
    effect = ruleset.reading("uth_transferred_tranche_effect", TRANSFERRED_TRANCHE_EFFECTS)
    return effect == "freeze"


# What a held tranche's cents went to, for its holder alone: used on a return, passed
# through to owners, expired (UTH-10). An owner's copy starts without them.
_SPENT = ("applied_cents", "passed_cents", "expired_cents")
_HOLDER_AMOUNTS = (*_SPENT, "at_risk_cents", "finding_cut_cents")


def tranche_unapplied(tranche: Mapping[str, Any]) -> int:
    """A held tranche's cents not yet used on a return, passed through or expired."""
    return max(0, int(tranche["cents"]) - sum(int(tranche.get(k, 0)) for k in _SPENT))


def pass_through_tranches(
    tranches: Sequence[Mapping[str, Any]], owner_cents: Mapping[str, int]
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """PT-5 / UTH-14: a held UTH credit passed through to the owners, `owner_cents` each.

    The amount is taken from the earliest tranches with unapplied cents (the entity's
    tranches record it as `passed_cents`), and each tranche taken is shared among the owners
    in proportion to what each has still to receive, so every owner gets the same mix of
    periods and exactly its cents. An owner's tranche keeps the period's flags (review,
    conditional, at_risk, frozen), so the limits still follow the credit (UTH-24)."""
    need = {owner: cents for owner, cents in owner_cents.items() if cents > 0}
    left = sum(need.values())
    entity: list[dict[str, Any]] = []
    owners: dict[str, list[dict[str, Any]]] = {owner: [] for owner in need}
    for tranche in tranches:
        row = dict(tranche)
        take = min(left, tranche_unapplied(tranche))
        if take:
            row["passed_cents"] = int(tranche.get("passed_cents", 0)) + take
            for owner, cents in split_exact(take, {o: n for o, n in need.items() if n}).items():
                if cents:
                    copy = {k: v for k, v in tranche.items() if k not in _HOLDER_AMOUNTS}
                    owners[owner].append(copy | {"cents": cents})
                    need[owner] -= cents
            left -= take
        entity.append(row)
    if left:
        raise InvalidRequestError(
            "the tranches hold less than the credit passed through",
            {"short_cents": left, "amount_cents": sum(owner_cents.values())},
        )
    return entity, owners


# ---- which tranches a return may use (UTH-10, UTH-24, UTH-26, UTH-27, AMB-15) -----------

# Why a held tranche's unapplied cents cannot go on a return, in the order a refusal names
# them, with the error code each gives when it withholds all that is left.
WITHHELD: Mapping[str, str] = {
    "frozen": "tranche_at_risk",
    "conditional": "tranche_not_reviewed",
    "not_yet_usable": "tranche_not_yet_usable",
    "expired": "carryforward_expired",
}


def tranche_state(tranche: Mapping[str, Any], tax_year: int) -> str:
    """`usable` on a return for `tax_year`, or why not: `frozen` (UTH-26, AMB-14),
    `conditional` (UTH-27, AMB-18), `not_yet_usable` (AMB-15: from the buyer's tax year in
    which the credited period ends; periods are tax years here) or `expired` (UTH-10: the
    20 successive periods after it have passed)."""
    if tranche.get("frozen"):
        return "frozen"
    if tranche.get("conditional"):
        return "conditional"
    if tax_year < int(tranche["period"]):
        return "not_yet_usable"
    last = tranche.get("carryforward_last_period")
    if last is not None and tax_year > int(last):
        return "expired"
    return "usable"


def withheld(
    tranches: Sequence[Mapping[str, Any]], tax_year: int
) -> dict[str, tuple[int, list[int]]]:
    """The unapplied cents and periods a return for `tax_year` cannot use, by reason."""
    out: dict[str, tuple[int, list[int]]] = {}
    for tranche in tranches:
        cents = tranche_unapplied(tranche)
        state = tranche_state(tranche, tax_year)
        if cents and state != "usable":
            total, periods = out.get(state, (0, []))
            out[state] = (total + cents, [*periods, int(tranche["period"])])
    return out


def expire_tranches(
    tranches: Sequence[Mapping[str, Any]], tax_year: int
) -> tuple[int, list[dict[str, Any]]]:
    """UTH-10: before a return for `tax_year`, what is left unapplied of every tranche
    whose carryforward ended earlier expires (frozen or conditional alike: the window runs
    regardless). Returns the cents and the tranches afterwards (`expired_cents`)."""
    total = 0
    out: list[dict[str, Any]] = []
    for tranche in tranches:
        row = dict(tranche)
        last = tranche.get("carryforward_last_period")
        cents = tranche_unapplied(tranche)
        if cents and last is not None and int(last) < tax_year:
            row["expired_cents"] = int(tranche.get("expired_cents", 0)) + cents
            total += cents
        out.append(row)
    return total, out


# ---- unreviewed tranches on sale (UTH-27, AMB-18) ----------------------------------------

UNREVIEWED_TRANCHE_READINGS: frozenset[str] = frozenset({"conditional", "reviewed_only"})


def reviewed(tranche: Mapping[str, Any]) -> bool:
    """The award's annual review has reached this installment (any finding)."""
    return tranche.get("review") is not None


def sells_unreviewed_tranches(ruleset: Ruleset) -> bool:
    """AMB-18: "conditional" (default) or "reviewed_only"."""
    reading = ruleset.reading("uth_unreviewed_tranches", UNREVIEWED_TRANCHE_READINGS)
    return reading == "conditional"


def split_tranches(
    tranches: Sequence[Mapping[str, Any]], amount_cents: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A sale takes the earliest unsold installments first. Returns the seller's tranches
    afterwards and the buyer's; a buyer's tranche whose period the award's annual review
    has not reached is `conditional` (UTH-27, AMB-18)."""
    left = amount_cents
    seller: list[dict[str, Any]] = []
    buyer: list[dict[str, Any]] = []
    for tranche in tranches:
        take = min(left, int(tranche["unsold_cents"]))
        seller.append(dict(tranche) | {"unsold_cents": int(tranche["unsold_cents"]) - take})
        if take:
            buyer.append(
                dict(tranche)
                | {"cents": take, "unsold_cents": 0, "conditional": not reviewed(tranche)}
            )
            left -= take
    return seller, buyer


def unreviewed_in_sale(
    tranches: Sequence[Mapping[str, Any]], amount_cents: int
) -> list[tuple[int, int]]:
    """The (period, cents) of a sale of `amount_cents` that fall on unreviewed tranches."""
    _, bought = split_tranches(tranches, amount_cents)
    return [(int(t["period"]), int(t["cents"])) for t in bought if t["conditional"]]


def check_unreviewed_sale(
    tranches: Sequence[Mapping[str, Any]], amount_cents: int, ruleset: Ruleset
) -> list[tuple[int, int]]:
    """UTH-27 / AMB-18: the unreviewed parts of a sale, allowed as conditional tranches;
    refused with `tranche_not_reviewed` where only reviewed installments may be sold."""
    unreviewed = unreviewed_in_sale(tranches, amount_cents)
    if unreviewed and not sells_unreviewed_tranches(ruleset):
        reviewed_cents = amount_cents - sum(c for _, c in unreviewed)
        raise TrancheNotReviewedError(
            "Only installments the Authority's annual review has reached may be sold "
            f"(UTH-27, ruleset uth_unreviewed_tranches = reviewed_only); tax period "
            f"{', '.join(str(p) for p, _ in unreviewed)} is not reviewed yet.",
            {
                "unreviewed": [{"period": p, "cents": c} for p, c in unreviewed],
                "reviewed_cents": reviewed_cents,
                "amount_cents": amount_cents,
            },
        )
    return unreviewed


def consume_tranches(
    tranches: Sequence[Mapping[str, Any]], amount_cents: int, tax_year: int
) -> list[dict[str, Any]]:
    """A credit application for `tax_year` uses the earliest usable tranches first (see
    `tranche_state`); each records its `applied_cents`. What none can take is unrecorded."""
    left = amount_cents
    out: list[dict[str, Any]] = []
    for tranche in tranches:
        row = dict(tranche)
        if left > 0 and tranche_state(tranche, tax_year) == "usable":
            take = min(left, tranche_unapplied(tranche))
            if take:
                row["applied_cents"] = int(tranche.get("applied_cents", 0)) + take
                left -= take
        out.append(row)
    return out
