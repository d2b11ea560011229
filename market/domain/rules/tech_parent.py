"""TB-4(2) / AMB-39: a TECH seller directly or indirectly at least 50% owned or controlled
by another corporation that had positive net operating income in either of its two
previous full years may not be approved. Read from the recorded ownership graph (votes or
value, indirect stakes the product along each chain, summed: affiliation.holdings) and the
owner's recorded operating income, with the ownership path in the reasons.

AMB-39 (ruleset `tech_parent_reading`): "corporations_only" (default, the statute's
words: C and S corporations and insurance companies) or "any_controller" (any entity).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from market.domain.rules.affiliation import (
    OwnershipGraph,
    controlling_parents,
    measure,
    ownership_chains,
)
from market.domain.rulesets import Ruleset

PARENT_READINGS = ("corporations_only", "any_controller")
CORPORATIONS = frozenset({"c_corporation", "s_corporation", "insurance_company"})


@dataclass(frozen=True)
class Owner:
    name: str
    entity_type: str
    operating_income_cents_by_year: Mapping[int, int]


@dataclass(frozen=True)
class ProfitableParent:
    owner_party_id: str
    profitable_years: tuple[int, ...]
    paths: tuple[tuple[str, ...], ...]
    text: str


def profitable_parents(
    graph: OwnershipGraph,
    seller: str,
    owners: Mapping[str, Owner],
    filed_on: date,
    ruleset: Ruleset,
) -> list[ProfitableParent]:
    """Every recorded controller of `seller` that bars it under TB-4(2)."""
    reading = ruleset.reading("tech_parent_reading", PARENT_READINGS)
    first = filed_on.year - ruleset.tech_profit_lookback_years
    found: list[ProfitableParent] = []
    parents = controlling_parents(
        graph, seller, ruleset.tech_parent_control_bps, ruleset.affiliation_max_links
    )
    for holding in parents:
        owner = owners.get(holding.owner)
        if owner is None:
            continue
        if reading == "corporations_only" and owner.entity_type not in CORPORATIONS:
            continue
        years = tuple(
            sorted(
                y
                for y, income in owner.operating_income_cents_by_year.items()
                if first <= y < filed_on.year and income > 0
            )
        )
        if not years:
            continue
        paths = ownership_chains(graph, holding.owner, seller, ruleset.affiliation_max_links)
        shown = "; ".join(" > ".join(p) for p in paths)
        found.append(
            ProfitableParent(
                holding.owner,
                years,
                tuple(tuple(p) for p in paths),
                f"{owner.name} ({holding.owner}) holds {measure(holding)} of the seller "
                f"through {shown} and had positive net operating income in "
                f"{', '.join(str(y) for y in years)} (TB-4(2))",
            )
        )
    return found
