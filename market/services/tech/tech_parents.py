"""TB-4(2) for a TECH application: the seller's recorded controllers and their recorded
operating income (market/domain/rules/tech_parent.py)."""

from __future__ import annotations

from datetime import date

from market.domain.rules.affiliation import holdings
from market.domain.rules.tech_parent import Owner, ProfitableParent, profitable_parents
from market.domain.rulesets import Ruleset
from market.services.kernel.reads import Source, repositories
from market.services.parties.parties import ownership_graph


def parent_findings(
    source: Source, party_id: str, filed_on: date, ruleset: Ruleset
) -> list[ProfitableParent]:
    graph = ownership_graph(source)
    above = [o for o in holdings(graph, party_id, ruleset.affiliation_max_links) if o != party_id]
    parties = repositories(source).parties
    owners = {}
    for owner_id in above:
        r = parties.get(owner_id)
        if r is not None:
            income = r["operating_income_cents_by_year"] or {}
            owners[owner_id] = Owner(
                r["name"], r["entity_type"], {int(y): int(v) for y, v in income.items()}
            )
    if not owners:
        return []
    return profitable_parents(graph, party_id, owners, filed_on, ruleset)
