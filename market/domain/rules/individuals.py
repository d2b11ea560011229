"""PT-7 / AMB-53: a GIT purchaser buys a credit of the bill through a business entity; an
individual buys one directly only under the Director's exception, recorded by the
Authority. Every program's credit is one (BRRAG, UTH, DM_GIT, DM_CBT, TECH: §40 reaches
their GIT use, AMB-21, AMB-57, AMB-58), so the bar is not DM_GIT's alone.

Ruleset `git_direct_individual_purchase`: "director_exception_only" (default), "blocked"
(AMB-53's alternative: never), or "allowed".
"""

from __future__ import annotations

from market.domain.errors import DomainError
from market.domain.programs import Program
from market.domain.rulesets import Ruleset

READINGS = ("director_exception_only", "blocked", "allowed")
INDIVIDUALS = frozenset({"individual"})


class IndividualPurchaseError(DomainError):
    code = "individual_purchase_not_allowed"


def buys_directly(entity_type: str, director_exception: bool, ruleset: Ruleset) -> bool:
    """Whether the party is an individual the ruleset lets buy directly: then it is its
    own credited business entity and its §40 ratio is 1 (PT-7, AMB-53)."""
    reading = ruleset.reading("git_direct_individual_purchase", READINGS)
    return entity_type in INDIVIDUALS and (
        reading == "allowed" or (reading == "director_exception_only" and director_exception)
    )


def check_individual_buyer(
    program: Program, buyer_entity_type: str, director_exception: bool, ruleset: Ruleset
) -> str:
    if buyer_entity_type not in INDIVIDUALS:
        return "The buyer is a business entity, not an individual buying directly (PT-7)."
    if buys_directly(buyer_entity_type, director_exception, ruleset):
        how = "under the Director's exception" if director_exception else "as the ruleset allows"
        return (
            f"The buyer is an individual buying directly {how} (PT-7, AMB-53); its §40 ratio is 1."
        )
    reading = ruleset.git_direct_individual_purchase
    needed = (
        "the Authority has recorded no Director's exception for it"
        if reading == "director_exception_only"
        else f"ruleset {ruleset.name} allows none"
    )
    raise IndividualPurchaseError(
        f"An individual buys a {program} credit through a business entity, not directly, "
        f"unless the Director makes an exception, and {needed} (PT-7, AMB-53).",
        {"program": program.value, "reading": reading},
    )
