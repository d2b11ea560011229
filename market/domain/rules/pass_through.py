"""GIT pass-through: owners' shares and the §40 liability-share ratio
(PT-2, PT-3, PT-5, PT-6, UTH-14, AMB-51, AMB-54, AMB-55)."""

from __future__ import annotations

from fractions import Fraction

from market.domain.errors import InvalidRequestError
from market.domain.rulesets import Ruleset
from market.domain.values import floor_int


def _split(amount_cents: int, shares: dict[str, int]) -> dict[str, int]:
    total = sum(shares.values())
    exact = {owner: Fraction(amount_cents * share, total) for owner, share in shares.items()}
    result = {owner: floor_int(x) for owner, x in exact.items()}
    leftover = amount_cents - sum(result.values())
    by_remainder = sorted(shares, key=lambda o: (-(exact[o] - result[o]), o))
    for owner in by_remainder[:leftover]:
        result[owner] += 1
    return result


def allocate_by_income_share(
    amount_cents: int,
    shares: dict[str, int],
    profit_sharing_bps: dict[str, int] | None = None,
) -> dict[str, int]:
    """Split a credit by each owner's share of total distributive (or pro rata) income.

    When that total is not positive, AMB-54 falls back to the partnership agreement's
    profit-sharing percentages, which the caller flags for Director review.
    """
    if amount_cents < 0 or any(v < 0 for v in shares.values()):
        raise InvalidRequestError(
            "the credit and each owner's income share must not be negative",
            {"amount_cents": amount_cents},
        )
    if sum(shares.values()) > 0:
        return _split(amount_cents, shares)
    if profit_sharing_bps and sum(profit_sharing_bps.values()) > 0:
        if any(v < 0 for v in profit_sharing_bps.values()):
            raise InvalidRequestError("profit-sharing percentages must not be negative")
        return _split(amount_cents, profit_sharing_bps)
    raise InvalidRequestError(
        "the entity's total distributive income is not positive and no profit-sharing "
        "percentages were given (AMB-54)",
        {"total_share": sum(shares.values())},
    )


def liability_share_ratio(
    entity_income_cents: int,
    category_amounts_cents: list[int],
    other_categories_net_cents: list[int],
    ruleset: Ruleset | None = None,
) -> Fraction:
    """PT-2: the entity's share of the category's net income over gross income, at most 1.

    ``category_amounts_cents`` lists every source in the entity's category, the entity's
    own amount included; ``other_categories_net_cents`` gives the other categories' nets.
    """
    positive = sum(x for x in category_amounts_cents if x > 0)
    net = max(0, sum(category_amounts_cents))
    gross_income = net + sum(max(0, x) for x in other_categories_net_cents)
    if entity_income_cents <= 0 or gross_income == 0:
        return Fraction(0)
    if ruleset is not None and ruleset.pt_numerator_mode == "algebraic":
        numerator = Fraction(entity_income_cents)
    else:
        numerator = Fraction(entity_income_cents * net, positive)
    return min(Fraction(1), numerator / gross_income)


def cap40_cents(ratio: Fraction, liability_cents: int) -> int:
    return floor_int(ratio * liability_cents)
