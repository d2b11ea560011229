"""The ownership web as the Authority's parties page shows it: every recorded stake with
both names, every owners' agreement in force, and each party's owners as a tree (an owner's
own owners beneath it), so an affiliation path can be read top to bottom. Reads only."""

from __future__ import annotations

from collections import defaultdict
from typing import TypedDict

from market.adapters.reads import parties as reads
from market.adapters.repositories.parties_models import OwnersAgreementRow, StakeRow
from market.services.kernel.reads import Connection

MAX_DEPTH = 8  # a chain deeper than this is cut short on the page (the table has it all)


class OwnerBranch(TypedDict):
    """An owner's stake, with the owner's own owners beneath it (`cycle`: it repeats)."""

    edge: StakeRow
    cycle: bool
    owners: list[OwnerBranch]


class OwnerTree(TypedDict):
    party_id: str
    owners: list[OwnerBranch]


def ownership_edges(conn: Connection) -> list[StakeRow]:
    return reads.ownership_edges(conn)


def agreements_in_force(conn: Connection) -> dict[str, OwnersAgreementRow]:
    return reads.agreements_in_force(conn)


def owner_trees(edges: list[StakeRow]) -> list[OwnerTree]:
    """For each owned party, its owners, each with its own owners beneath it; a cycle
    (A owns B owns A) stops where it repeats, marked `cycle`."""
    owners: dict[str, list[StakeRow]] = defaultdict(list)
    for e in edges:
        owners[e["owned_party_id"]].append(e)

    def grow(party_id: str, seen: frozenset[str]) -> list[OwnerBranch]:
        branches: list[OwnerBranch] = []
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
