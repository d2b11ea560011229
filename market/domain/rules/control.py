"""TB-4(2) / AMB-63: control passes through a chain of majority holdings.

"Directly or indirectly ... owned or controlled": ownership multiplies along a chain
(affiliation.holdings: 80% of 60% is 48% owned), but control does not thin out. A party
controls what it holds at least the threshold of (votes or value), and what it and the
parties it controls together hold at least the threshold of: P holding 80% of H, H holding
60% of the seller, controls the seller. Only the owners above the seller are visited.
"""

from __future__ import annotations

from dataclasses import dataclass

from market.domain.rules.affiliation import OwnershipGraph, holdings


@dataclass(frozen=True)
class Control:
    """``controller`` controls the party at the end of ``chain`` (controller first)."""

    controller: str
    chain: tuple[str, ...]


def _controlled_by(
    graph: OwnershipGraph, top: str, among: frozenset[str], threshold_bps: int
) -> dict[str, str]:
    """Every party of ``among`` that ``top`` controls, each with the controlled holder of
    its largest controlled stake (the link a chain is shown through)."""
    through: dict[str, str] = {top: top}
    grew = True
    while grew:
        grew = False
        for party in sorted(among - through.keys()):
            held = [s for s in graph.owners_of.get(party, ()) if s.owner in through]
            votes = sum(s.voting_bps for s in held)
            value = sum(s.value_bps for s in held)
            if max(votes, value) >= threshold_bps:
                biggest = max(held, key=lambda s: (max(s.voting_bps, s.value_bps), s.owner))
                through[party] = biggest.owner
                grew = True
    return through


def controllers(
    graph: OwnershipGraph, party: str, threshold_bps: int, max_links: int
) -> list[Control]:
    """Every owner above ``party`` that controls it, with one chain of control to show."""
    above = holdings(graph, party, max_links)
    among = frozenset(above)
    found: list[Control] = []
    for top in sorted(o for o in above if o != party):
        through = _controlled_by(graph, top, among, threshold_bps)
        if party not in through:
            continue
        chain = [party]
        while chain[-1] != top:
            chain.append(through[chain[-1]])
        found.append(Control(top, tuple(reversed(chain))))
    return found
