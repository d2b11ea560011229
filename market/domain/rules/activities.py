"""PT-1 "no duplicate use": the creditable-activity registry (A1178 §40, AMB-56).

Each award or certificate lists ``creditable_activity_ids`` (a project, a job cohort, an
expense batch); a derived certificate (transfer, pass-through) carries its root's. A credit
is refused when one of its activities was already used, on a return, for another State
credit (a certificate of a different ``root_id``) by the taxpayer, or under the default
scope (``Ruleset.pt1_activity_scope == "entity_and_owners"``, AMB-56) by any party in the
taxpayer's ownership chain: its direct or indirect owners and the entities it owns directly
or indirectly, so an entity-level CBT use and an owner-level GIT use conflict whichever came
first. The alternative scope ``"same_taxpayer"`` looks at the applicant only. Applying the
same certificate (or another piece of the same root) again in a later year is not a
duplicate: it is the same credit.

Tax types. §40's text bars "a GIT credit"; read alone, it would refuse only the GIT use
that comes second. The ledger applies the check to every CREDIT_APPLIED, whatever the tax
type, because (a) AMB-56's stated purpose is that the same activity cannot support a CBT
credit at entity level and a GIT credit at owner level, and when the GIT use is recorded
first the ledger cannot disallow it afterwards, so the only way to keep one credit per
activity is to refuse the later use, CBT included; (b) PT-8 gives the GIT credits terms
"substantially similar" to their CBT counterparts, so the bar is read as symmetric; and
(c) refusing is the conservative side, reversible by a Director determination, while an
allowed duplicate would need a recapture. Only uses recorded on this ledger are visible:
another State credit claimed outside it is for the Division's own audit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from market.domain.errors import InvalidRequestError
from market.domain.rules.affiliation import OwnershipGraph

ENTITY_AND_OWNERS = "entity_and_owners"
SAME_TAXPAYER = "same_taxpayer"
SCOPES = (ENTITY_AND_OWNERS, SAME_TAXPAYER)

MAX_ACTIVITIES = 50
MAX_ACTIVITY_ID_LENGTH = 100


def normalize_activity_ids(ids: Iterable[str] | None) -> list[str]:
    """The ids as given (order kept), refused when one is empty or longer than 100
    characters, when there are more than 50, or when one repeats."""
    given = list(ids or [])
    if len(given) > MAX_ACTIVITIES:
        raise InvalidRequestError(
            f"At most {MAX_ACTIVITIES} creditable activity ids may be given.",
            {"count": len(given)},
        )
    bad = [a for a in given if not isinstance(a, str) or not 1 <= len(a) <= MAX_ACTIVITY_ID_LENGTH]
    if bad:
        raise InvalidRequestError(
            f"Each creditable activity id must be 1 to {MAX_ACTIVITY_ID_LENGTH} characters.",
            {"invalid": [str(a)[:120] for a in bad]},
        )
    repeated = sorted({a for a in given if given.count(a) > 1})
    if repeated:
        raise InvalidRequestError(
            "Creditable activity ids must not repeat.", {"duplicates": repeated}
        )
    return given


def _closure(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen, stack = {start}, [start]
    while stack:
        for nxt in edges.get(stack.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def parties_in_scope(graph: OwnershipGraph, party: str, scope: str) -> frozenset[str]:
    """The taxpayers whose earlier uses count against ``party`` (AMB-56).

    ``entity_and_owners``: ``party``, every owner above it and every entity below it,
    through any number of recorded stakes (any recorded stake counts, whatever its size:
    the bar is on the activity, not on control). ``same_taxpayer``: ``party`` alone.
    """
    if scope not in SCOPES:
        raise InvalidRequestError(
            f"unknown PT-1 activity scope {scope!r}", {"scope": scope, "known": list(SCOPES)}
        )
    if scope == SAME_TAXPAYER:
        return frozenset({party})
    up: dict[str, set[str]] = defaultdict(set)
    down: dict[str, set[str]] = defaultdict(set)
    for owned, stakes in graph.owners_of.items():
        for s in stakes:
            up[owned].add(s.owner)
            down[s.owner].add(owned)
    return frozenset(_closure(party, up) | _closure(party, down))


@dataclass(frozen=True)
class PriorUse:
    """One earlier CREDIT_APPLIED with a positive applied amount."""

    application_id: str
    party_id: str
    certificate_id: str
    certificate_number: str
    root_id: str
    tax_type: str
    tax_year: int
    activity_ids: tuple[str, ...]


@dataclass(frozen=True)
class Conflict:
    use: PriorUse
    activity_ids: tuple[str, ...]  # the shared ones, in the applicant's order


def conflicting_uses(
    activity_ids: Sequence[str], root_id: str, prior_uses: Iterable[PriorUse]
) -> list[Conflict]:
    """The earlier uses of another credit (a different root) that share an activity with
    the applicant's certificate, in the order given. Uses of the same root never conflict:
    a later year's application of the same credit is not a duplicate."""
    mine = list(dict.fromkeys(activity_ids))
    conflicts: list[Conflict] = []
    if not mine:
        return conflicts
    for use in prior_uses:
        if use.root_id == root_id:
            continue
        theirs = set(use.activity_ids)
        shared = tuple(a for a in mine if a in theirs)
        if shared:
            conflicts.append(Conflict(use, shared))
    return conflicts
