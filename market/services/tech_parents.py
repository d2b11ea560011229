"""TB-4(2) for a TECH application: the seller's recorded controllers and their recorded
operating income (market/domain/rules/tech_parent.py)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.domain.rules.affiliation import holdings
from market.domain.rules.tech_parent import Owner, ProfitableParent, profitable_parents
from market.domain.rulesets import Ruleset
from market.services.parties import ownership_graph, parties_t


def parent_findings(
    conn: Connection, party_id: str, filed_on: date, ruleset: Ruleset
) -> list[ProfitableParent]:
    graph = ownership_graph(conn)
    above = [o for o in holdings(graph, party_id, ruleset.affiliation_max_links) if o != party_id]
    if not above:
        return []
    rows = conn.execute(
        select(
            parties_t.c.id,
            parties_t.c.name,
            parties_t.c.entity_type,
            parties_t.c.operating_income_cents_by_year,
        ).where(parties_t.c.id.in_(above))
    )
    owners = {
        r.id: Owner(
            r.name,
            r.entity_type,
            {int(y): int(v) for y, v in (r.operating_income_cents_by_year or {}).items()},
        )
        for r in rows
    }
    return profitable_parents(graph, party_id, owners, filed_on, ruleset)
