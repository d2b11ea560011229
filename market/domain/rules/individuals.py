"""PT-7 / AMB-53: a GIT credit is bought through a business entity; an individual buys a
DM_GIT credit directly only under the Director's exception, recorded by the Authority.

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


def check_individual_buyer(
    program: Program, buyer_entity_type: str, director_exception: bool, ruleset: Ruleset
) -> str:
    reading = ruleset.reading("git_direct_individual_purchase", READINGS)
    if program is not Program.DM_GIT or buyer_entity_type not in INDIVIDUALS:
        return "The buyer is not an individual buying a DM_GIT credit directly (PT-7)."
    if reading == "allowed" or (reading == "director_exception_only" and director_exception):
        return (
            "The buyer is an individual buying directly under the Director's exception "
            "(PT-7, AMB-53); its §40 ratio is 1."
        )
    needed = (
        "the Authority has recorded no Director's exception for it"
        if reading == "director_exception_only"
        else f"ruleset {ruleset.name} allows none"
    )
    raise IndividualPurchaseError(
        "An individual buys a DM_GIT credit through a business entity, not directly, "
        f"unless the Director makes an exception, and {needed} (PT-7, AMB-53).",
        {"program": program.value, "reading": reading},
    )
