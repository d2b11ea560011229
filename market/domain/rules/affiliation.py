"""Buyer–seller affiliation and the controlling-parent test (TB-20, AMB-34, TB-4(2)).

Indirect ownership is the product of the stakes along a chain, summed over chains. Only
the owners above ``a`` and above ``b`` are visited, so a query touches the two ancestor
sets and never the whole graph.

When the owners above a party form no cycle (the usual structure) every chain is a simple
path and the sum is exact, however long the chains. Where cross-holdings form a cycle, the
chains are traced layer by layer for at most ``ruleset.affiliation_max_links`` links and a
chain may go round the cycle; those rounds are counted (as integrated-ownership measures
do), which errs towards finding an affiliation, the conservative side of AMB-34.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from market.domain.errors import AffiliatedPartiesError, InvalidRequestError
from market.domain.rulesets import Ruleset
from market.domain.values import percent_text

_WHOLE = 10_000
_PATHS_SHOWN = 5
_SEARCH_STEPS = 20_000


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


def _add(
    totals: dict[str, tuple[int, int, int]], owner: str, votes: int, value: int, links: int
) -> None:
    """Add a share over 10000**links to ``owner``'s total, rescaling to the longer chain."""
    old_votes, old_value, old_links = totals.get(owner, (0, 0, links))
    if links >= old_links:
        scale = _WHOLE ** (links - old_links)
        totals[owner] = (old_votes * scale + votes, old_value * scale + value, links)
    else:
        scale = _WHOLE ** (old_links - links)
        totals[owner] = (old_votes + votes * scale, old_value + value * scale, old_links)


def _acyclic_holdings(graph: OwnershipGraph, party: str) -> dict[str, tuple[int, int, int]] | None:
    """Exact sums over every chain, each owner visited once after all it owns (Kahn's
    order); ``None`` when the owners above ``party`` hold each other in a cycle."""
    waiting: dict[str, int] = defaultdict(int)
    seen, stack = {party}, [party]
    while stack:
        for s in graph.owners_of.get(stack.pop(), ()):
            if s.owner == party:
                continue
            waiting[s.owner] += 1
            if s.owner not in seen:
                seen.add(s.owner)
                stack.append(s.owner)
    totals: dict[str, tuple[int, int, int]] = {party: (1, 1, 0)}
    owners_of = graph.owners_of
    ready = [party]
    while ready:
        node = ready.pop()
        votes, value, links = totals[node]
        for s in owners_of.get(node, ()):
            owner = s.owner
            if owner == party:
                continue
            _add(totals, owner, votes * s.voting_bps, value * s.value_bps, links + 1)
            left = waiting[owner] - 1
            waiting[owner] = left
            if not left:
                ready.append(owner)
    return totals if len(totals) == len(seen) else None


def _walk_holdings(
    graph: OwnershipGraph, party: str, max_links: int
) -> dict[str, tuple[int, int, int]]:
    """Layer-by-layer chains of at most ``max_links`` links, for graphs with cycles."""
    totals: dict[str, tuple[int, int, int]] = {party: (1, 1, 0)}
    frontier: dict[str, tuple[int, int]] = {party: (1, 1)}
    for links in range(1, max_links + 1):
        nxt: dict[str, tuple[int, int]] = {}
        for owned, (vote_share, value_share) in frontier.items():
            for s in graph.owners_of.get(owned, ()):
                if s.owner == party:
                    continue
                old_vote, old_value = nxt.get(s.owner, (0, 0))
                nxt[s.owner] = (
                    old_vote + vote_share * s.voting_bps,
                    old_value + value_share * s.value_bps,
                )
        frontier = {o: shares for o, shares in nxt.items() if any(shares)}
        for owner, (v, w) in frontier.items():
            _add(totals, owner, v, w, links)
        if not frontier:
            break
    return totals


def _raw_holdings(
    graph: OwnershipGraph, party: str, max_links: int
) -> dict[str, tuple[int, int, int]]:
    """Owner -> (votes, value, links): each share is the numerator over 10000**links.

    A chain of ``d`` links has a share that is an exact multiple of 1/10000**d, so all the
    arithmetic is on integers. A party holds all of itself; cross-holdings back into it add
    nothing.
    """
    exact = _acyclic_holdings(graph, party)
    return exact if exact is not None else _walk_holdings(graph, party, max_links)


def _holding(owner: str, raw: tuple[int, int, int]) -> Holding:
    votes, value, links = raw
    return Holding(owner, Fraction(votes, _WHOLE**links), Fraction(value, _WHOLE**links))


def _at_least(raw: tuple[int, int, int], threshold_bps: int) -> bool:
    votes, value, links = raw
    bar: int = threshold_bps * _WHOLE**links
    return max(votes, value) * _WHOLE >= bar


def holdings(graph: OwnershipGraph, party: str, max_links: int) -> dict[str, Holding]:
    """Every owner above ``party`` with its aggregated stake; ``party`` holds all of itself."""
    return {o: _holding(o, raw) for o, raw in _raw_holdings(graph, party, max_links).items()}


def _chains(graph: OwnershipGraph, top: str, bottom: str, max_links: int) -> list[list[str]]:
    """A few simple ownership chains from ``top`` down to ``bottom``, to show in the reasons.

    Owners from which ``top`` cannot be reached are remembered, so a dense graph is not
    explored once per path; the step budget bounds the search whatever the graph.
    """
    found: list[list[str]] = []
    dead: set[str] = set()
    path = [bottom]
    budget = [_SEARCH_STEPS]

    def climb(node: str) -> bool:
        if node == top:
            found.append(list(reversed(path)))
            return True
        reached = False
        for s in graph.owners_of.get(node, ()):
            if len(found) >= _PATHS_SHOWN or budget[0] <= 0 or len(path) > max_links:
                return True  # stop searching; not proof that ``node`` is a dead end
            if s.owner in dead or s.owner in path:
                continue
            budget[0] -= 1
            path.append(s.owner)
            reached = climb(s.owner) or reached
            path.pop()
        if not reached:
            dead.add(node)
        return reached

    climb(bottom)
    return found


def ownership_chains(
    graph: OwnershipGraph, top: str, bottom: str, max_links: int
) -> list[list[str]]:
    """A few ownership chains from ``top`` down to ``bottom`` (for reasons, e.g. TB-4(2))."""
    return _chains(graph, top, bottom, max_links)


def measure(h: Holding) -> str:
    return _measure(h)


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
    raw_a = _raw_holdings(graph, a, links)
    raw_b = _raw_holdings(graph, b, links)
    excluded = {a, b} if ruleset.affiliation_mode == "third_party_only" else set()
    reasons: list[str] = []
    paths: list[list[str]] = []
    bps = ruleset.tech_affiliation_bps
    for owner in sorted(raw_a.keys() & raw_b.keys()):
        if owner in excluded or not (_at_least(raw_a[owner], bps) and _at_least(raw_b[owner], bps)):
            continue
        in_a, in_b = _holding(owner, raw_a[owner]), _holding(owner, raw_b[owner])
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
        for party, other, other_above in ((a, b, raw_b), (b, a, raw_a)):
            if party not in (x, y):
                continue
            partner = y if x == party else x
            raw = other_above.get(partner)
            if raw is not None and _at_least(raw, bps):
                held = _holding(partner, raw)
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
    raw = _raw_holdings(graph, party, max_links)
    return sorted(
        (_holding(o, r) for o, r in raw.items() if o != party and _at_least(r, threshold_bps)),
        key=lambda h: (-h.best, h.owner),
    )


def check_not_affiliated(
    graph: OwnershipGraph,
    buyer: str,
    seller: str,
    ruleset: Ruleset,
    related_pairs: frozenset[tuple[str, str]] = frozenset(),
) -> None:
    result = affiliation(graph, buyer, seller, ruleset, related_pairs)
    if result.affiliated:
        raise AffiliatedPartiesError(
            f"{buyer} and {seller} are affiliated: " + "; ".join(result.reasons),
            {"reasons": list(result.reasons), "paths": [list(p) for p in result.paths]},
        )
