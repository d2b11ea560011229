"""TB-4(2) / AMB-39: a TECH seller directly or indirectly at least 50% owned or controlled
by another corporation that had positive net operating income in either of its two
previous full years may not be approved. Read from the recorded ownership graph (votes or
value, indirect stakes the product along each chain, summed: affiliation.holdings) and the
owner's recorded operating income, with the ownership path in the reasons.

AMB-39 (ruleset `tech_parent_reading`): "corporations_only" (default, the statute's
words: C and S corporations and insurance companies) or "any_controller" (any entity).

AMB-63 (ruleset `tech_parent_chain_reading`): "ownership_or_control" (default): a parent
bars the seller when it owns 50% or more (multiplied along chains) or controls it through
a chain of majority holdings (rules/control.py); "ownership_only": the multiplied
ownership alone (not recommended: a profitable parent could hold the seller through a
loss-making subsidiary).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from market.domain.rules.affiliation import (
    Holding,
    OwnershipGraph,
    controlling_parents,
    holdings,
    measure,
    ownership_chains,
)
from market.domain.rules.control import controllers
from market.domain.rulesets import Ruleset

PARENT_READINGS = ("corporations_only", "any_controller")
CHAIN_READINGS = ("ownership_or_control", "ownership_only")
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
    for owner_id, (holding, chain) in _parents(graph, seller, ruleset).items():
        owner = owners.get(owner_id)
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
        paths = ownership_chains(graph, owner_id, seller, ruleset.affiliation_max_links)
        shown = "; ".join(" > ".join(p) for p in paths)
        controls = (
            f" and controls it through the chain of majority holdings {' > '.join(chain)} (AMB-63)"
            if chain
            else ""
        )
        found.append(
            ProfitableParent(
                owner_id,
                years,
                tuple(tuple(p) for p in paths),
                f"{owner.name} ({owner_id}) holds {measure(holding)} of the seller "
                f"through {shown}{controls} and had positive net operating income in "
                f"{', '.join(str(y) for y in years)} (TB-4(2))",
            )
        )
    return found


def _parents(
    graph: OwnershipGraph, seller: str, ruleset: Ruleset
) -> dict[str, tuple[Holding, tuple[str, ...]]]:
    """The owners that own 50% or more of `seller` or (AMB-63's default) control it, each
    with what it holds and the chain of control (empty when it is ownership alone)."""
    chains = ruleset.reading("tech_parent_chain_reading", CHAIN_READINGS)
    threshold, links = ruleset.tech_parent_control_bps, ruleset.affiliation_max_links
    owned = controlling_parents(graph, seller, threshold, links)
    found: dict[str, tuple[Holding, tuple[str, ...]]] = {h.owner: (h, ()) for h in owned}
    above = holdings(graph, seller, links)
    if chains == "ownership_or_control":
        for c in controllers(graph, seller, threshold, links):
            found[c.controller] = (above[c.controller], c.chain)
    return dict(sorted(found.items(), key=lambda item: (-item[1][0].best, item[0])))
