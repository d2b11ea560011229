"""Buyer–seller affiliation and the controlling-parent test (TB-20, AMB-34, TB-4(2)).

Indirect ownership is the product of the stakes along a chain, summed over chains. Only
the owners above ``a`` and above ``b`` are visited, so a query touches the two ancestor
sets and never the whole graph.

Chains are traced upward layer by layer for at most ``ruleset.affiliation_max_links``
links. In an acyclic graph (the usual ownership structure) every chain is a simple path
and the sum is exact. Where cross-holdings form a cycle, a chain may go round it; those
contributions are counted (as in integrated-ownership measures) until the link bound,
which errs towards finding an affiliation, the conservative side of AMB-34.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from market.domain.errors import InvalidRequestError
from market.domain.rulesets import Ruleset
from market.domain.values import percent_text

_WHOLE = 10_000
_PATHS_SHOWN = 5


@dataclass(frozen=True)
class Stake:
    owner: str
    owned: str
    voting_bps: int
    value_bps: int


@dataclass(frozen=True)
class Holding:
    """What ``owner`` holds of one party, directly and indirectly."""

    owner: str
    voting: Fraction
    value: Fraction

    @property
    def best(self) -> Fraction:
        return max(self.voting, self.value)


@dataclass(frozen=True)
class OwnershipGraph:
    owners_of: Mapping[str, tuple[Stake, ...]] = field(default_factory=dict)

    @classmethod
    def from_stakes(cls, stakes: Iterable[Stake]) -> OwnershipGraph:
        owners: dict[str, list[Stake]] = defaultdict(list)
        for s in stakes:
            if s.owner == s.owned:
                raise InvalidRequestError(
                    f"{s.owner} cannot hold a stake in itself", {"party": s.owner}
                )
            if not (0 <= s.voting_bps <= _WHOLE and 0 <= s.value_bps <= _WHOLE):
                raise InvalidRequestError(
                    f"a stake of {s.owner} in {s.owned} must lie between 0 and 10000 bps",
                    {
                        "owner": s.owner,
                        "owned": s.owned,
                        "voting_bps": s.voting_bps,
                        "value_bps": s.value_bps,
                    },
                )
            owners[s.owned].append(s)
        return cls({owned: tuple(v) for owned, v in owners.items()})


@dataclass(frozen=True)
class AffiliationResult:
    affiliated: bool
    reasons: list[str]
    paths: list[list[str]]


def holdings(graph: OwnershipGraph, party: str, max_links: int) -> dict[str, Holding]:
    """Every owner above ``party`` with its aggregated stake; ``party`` holds all of itself."""
    voting: dict[str, Fraction] = defaultdict(Fraction)
    value: dict[str, Fraction] = defaultdict(Fraction)
    voting[party] = value[party] = Fraction(1)
    frontier = {party: (Fraction(1), Fraction(1))}
    for _ in range(max_links):
        nxt: dict[str, tuple[Fraction, Fraction]] = {}
        for owned, (vote_share, value_share) in frontier.items():
            for s in graph.owners_of.get(owned, ()):
                if s.owner == party:
                    continue  # a party already holds all of itself; its cross-holdings add none
                add_vote = vote_share * s.voting_bps / _WHOLE
                add_value = value_share * s.value_bps / _WHOLE
                old_vote, old_value = nxt.get(s.owner, (Fraction(0), Fraction(0)))
                nxt[s.owner] = (old_vote + add_vote, old_value + add_value)
        for owner, (v, w) in nxt.items():
            voting[owner] += v
            value[owner] += w
        frontier = {o: shares for o, shares in nxt.items() if any(shares)}
        if not frontier:
            break
    return {o: Holding(o, voting[o], value[o]) for o in voting}


def _chains(graph: OwnershipGraph, top: str, bottom: str, max_links: int) -> list[list[str]]:
    """Simple ownership chains from ``top`` down to ``bottom`` (a few, for the reasons)."""
    found: list[list[str]] = []
    path = [bottom]

    def climb(node: str) -> None:
        if node == top:
            found.append(list(reversed(path)))
            return
        if len(path) > max_links or len(found) >= _PATHS_SHOWN:
            return
        for s in graph.owners_of.get(node, ()):
            if s.owner not in path:
                path.append(s.owner)
                climb(s.owner)
                path.pop()

    climb(bottom)
    return found


def _measure(h: Holding) -> str:
    return f"{percent_text(h.voting, 2)} of the votes and {percent_text(h.value, 2)} of the value"


def affiliation(
    graph: OwnershipGraph,
    a: str,
    b: str,
    ruleset: Ruleset,
    related_pairs: frozenset[tuple[str, str]] = frozenset(),
) -> AffiliationResult:
    if a == b:
        raise InvalidRequestError("a party cannot trade with itself", {"party": a})
    threshold = Fraction(ruleset.tech_affiliation_bps, _WHOLE)
    links = ruleset.affiliation_max_links
    above_a = holdings(graph, a, links)
    above_b = holdings(graph, b, links)
    excluded = {a, b} if ruleset.affiliation_mode == "third_party_only" else set()
    reasons: list[str] = []
    paths: list[list[str]] = []
    for owner in sorted(above_a.keys() & above_b.keys()):
        in_a, in_b = above_a[owner], above_b[owner]
        if owner in excluded or in_a.best < threshold or in_b.best < threshold:
            continue
        reasons.append(
            f"{owner} holds {_measure(in_a)} of {a} and {_measure(in_b)} of {b}, "
            f"at least {percent_text(threshold, 0)} of both"
        )
        paths.extend(_chains(graph, owner, a, links) if owner != a else [[a]])
        paths.extend(_chains(graph, owner, b, links) if owner != b else [[b]])
    for x, y in sorted(related_pairs):
        if {x, y} == {a, b}:
            reasons.append(f"{a} and {b} are recorded as related taxpayers under IRC §267")
            continue
        for party, other, other_above in ((a, b, above_b), (b, a, above_a)):
            if party not in (x, y):
                continue
            partner = y if x == party else x
            held = other_above.get(partner)
            if held is not None and held.best >= threshold:
                reasons.append(
                    f"{partner}, a related taxpayer of {party} under IRC §267, "
                    f"holds {_measure(held)} of {other}"
                )
                paths.extend(_chains(graph, partner, other, links))
    return AffiliationResult(bool(reasons), reasons, paths)


def controlling_parents(
    graph: OwnershipGraph, party: str, threshold_bps: int = 5_000, max_links: int = 24
) -> list[Holding]:
    """Owners holding at least ``threshold_bps`` of the votes or value of ``party``."""
    threshold = Fraction(threshold_bps, _WHOLE)
    return sorted(
        (
            h
            for o, h in holdings(graph, party, max_links).items()
            if o != party and h.best >= threshold
        ),
        key=lambda h: (-h.best, h.owner),
    )
