"""The ownership web as the Authority's parties page shows it: every recorded stake with
both names, every owners' agreement in force, and each party's owners as a tree (an owner's
own owners beneath it), so an affiliation path can be read top to bottom. Reads only."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.tables import OwnersAgreement, Ownership, Party

owners_t = Ownership.__table__  # type: ignore[attr-defined]
agreements_t = OwnersAgreement.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]

MAX_DEPTH = 8  # a chain deeper than this is cut short on the page (the table has it all)


def ownership_edges(conn: Connection) -> list[dict[str, Any]]:
    rows = conn.execute(
        select(owners_t).order_by(owners_t.c.owned_party_id, owners_t.c.owner_party_id)
    ).mappings()
    return [dict(r) for r in rows]


def agreements_in_force(conn: Connection) -> dict[str, dict[str, Any]]:
    return {r["party_id"]: dict(r) for r in conn.execute(select(agreements_t)).mappings()}


def owner_trees(edges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each owned party, its owners, each with its own owners beneath it; a cycle
    (A owns B owns A) stops where it repeats, marked `cycle`."""
    owners: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for e in edges:
        owners[e["owned_party_id"]].append(e)

    def grow(party_id: str, seen: frozenset[str]) -> list[dict[str, Any]]:
        branches = []
        for e in owners.get(party_id, []):
            owner = e["owner_party_id"]
            cycle = owner in seen
            deeper = not cycle and len(seen) < MAX_DEPTH
            branches.append(
                {
                    "edge": e,
                    "cycle": cycle,
                    "owners": grow(owner, seen | {owner}) if deeper else [],
                }
            )
        return branches

    return [{"party_id": p, "owners": grow(p, frozenset({p}))} for p in sorted(owners)]
