"""Unreviewed UTH tranches on sale: whether and how a sale may carry them (UTH-27, AMB-18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from market.domain.errors import TrancheNotReviewedError
from market.domain.rulesets import Ruleset

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
