"""A held UTH tranche's cents: what is unapplied, passed through, withheld from a return,
expired or consumed (UTH-10, UTH-24, UTH-26, UTH-27, AMB-15).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from market.domain.errors import (
    DomainError,
    InvalidRequestError,
    TrancheAtRiskError,
    TrancheNotReviewedError,
    TrancheNotYetUsableError,
)
from market.domain.rules.pass_through import split_exact
from market.domain.rules.sale_window import CarryforwardExpiredError

if TYPE_CHECKING:  # the model's certificates hold tranches
    from market.domain.model.certificate import Tranche

# What a held tranche's cents went to, for its holder alone: used on a return, passed
# through to owners, expired (UTH-10). An owner's copy starts without them.
_SPENT = ("applied_cents", "passed_cents", "expired_cents")


def tranche_unapplied(tranche: Mapping[str, Any]) -> int:
    """A held tranche's cents not yet used on a return, passed through or expired."""
    return max(0, int(tranche["cents"]) - sum(int(tranche.get(k, 0)) for k in _SPENT))


def pass_through_tranches(
    tranches: Sequence[Tranche], owner_cents: Mapping[str, int]
) -> tuple[list[Tranche], dict[str, list[Tranche]]]:
    """PT-5 / UTH-14: a held UTH credit passed through to the owners, `owner_cents` each.

    The amount is taken from the earliest tranches with unapplied cents (the entity's
    tranches record it as `passed_cents`), and each tranche taken is shared among the owners
    in proportion to what each has still to receive, so every owner gets the same mix of
    periods and exactly its cents. An owner's tranche keeps the period's flags (review,
    conditional, at_risk, frozen), so the limits still follow the credit (UTH-24)."""
    need = {owner: cents for owner, cents in owner_cents.items() if cents > 0}
    left = sum(need.values())
    entity: list[Tranche] = []
    owners: dict[str, list[Tranche]] = {owner: [] for owner in need}
    for tranche in tranches:
        row = tranche.copy()
        take = min(left, tranche_unapplied(tranche))
        if take:
            row["passed_cents"] = tranche.get("passed_cents", 0) + take
            for owner, cents in split_exact(take, {o: n for o, n in need.items() if n}).items():
                if cents:
                    owners[owner].append(_owner_tranche(tranche, cents))
                    need[owner] -= cents
            left -= take
        entity.append(row)
    if left:
        raise InvalidRequestError(
            "the tranches hold less than the credit passed through",
            {"short_cents": left, "amount_cents": sum(owner_cents.values())},
        )
    return entity, owners


def _owner_tranche(tranche: Tranche, cents: int) -> Tranche:
    """An owner's share of a tranche passed through: its period and flags, none of the
    entity's amounts (`_SPENT`, and the cents at risk or cut by a review)."""
    copy = tranche.copy()
    copy.pop("applied_cents", None)
    copy.pop("passed_cents", None)
    copy.pop("expired_cents", None)
    copy.pop("at_risk_cents", None)
    copy.pop("finding_cut_cents", None)
    copy["cents"] = cents
    return copy


# Why a held tranche's unapplied cents cannot go on a return, in the order a refusal names
# them, with the error each raises when it withholds all that is left.
WITHHELD: Mapping[str, type[DomainError]] = {
    "frozen": TrancheAtRiskError,
    "conditional": TrancheNotReviewedError,
    "not_yet_usable": TrancheNotYetUsableError,
    "expired": CarryforwardExpiredError,
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


def expire_tranches(tranches: Sequence[Tranche], tax_year: int) -> tuple[int, list[Tranche]]:
    """UTH-10: before a return for `tax_year`, what is left unapplied of every tranche
    whose carryforward ended earlier expires (frozen or conditional alike: the window runs
    regardless). Returns the cents and the tranches afterwards (`expired_cents`)."""
    total = 0
    out: list[Tranche] = []
    for tranche in tranches:
        row = tranche.copy()
        last = tranche.get("carryforward_last_period")
        cents = tranche_unapplied(tranche)
        if cents and last is not None and last < tax_year:
            row["expired_cents"] = tranche.get("expired_cents", 0) + cents
            total += cents
        out.append(row)
    return total, out


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
