"""The use of the private financial assistance (PFA) a seller receives: BRRAG and TECH
proceeds must fund the seller's New Jersey operating expenses, and the ledger records the
seller's attestation of that use (BR-14, TB-25; C.34:1B-120.2(b), C.34:1B-7.42a(c)).

Reading (ruleset `pfa_use_attestation`): "record" (default) keeps the attestation when the
seller gives one and says so at approval, and approves without it, since PRODUCT.md's
transfer request does not require it; "required" refuses the approval of a BRRAG or TECH
transfer with no attestation (`use_of_proceeds_missing`). Misuse found later is a
recapture basis (`proceeds_misused`, TB-40(a)); the ledger cannot see the spending itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.errors import DomainError, InvalidRequestError
from market.domain.programs import Program
from market.domain.rulesets import Ruleset

# BR-14's list of New Jersey operating expenses (TB-25: the same list), in its order.
USES: dict[str, str] = {
    "fixed_assets": "fixed assets",
    "real_estate": "real estate",
    "materials": "materials",
    "start_up_costs": "start-up costs",
    "tenant_fit_out": "tenant fit-out",
    "working_capital": "working capital",
    "salaries": "salaries",
    "research_and_development": "research and development",
    "other_authority_allowed": "other expenses the Authority allows",
}
PROGRAMS: frozenset[Program] = frozenset({Program.BRRAG, Program.TECH})
READINGS: frozenset[str] = frozenset({"record", "required"})


class UseOfProceedsMissingError(DomainError):
    code = "use_of_proceeds_missing"


def normalize_uses(uses: Sequence[str] | None) -> list[str]:
    """The attested uses in BR-14's order, each once; an unknown use is refused."""
    given = list(uses or [])
    unknown = sorted(set(given) - set(USES))
    if unknown:
        raise InvalidRequestError(
            f"{', '.join(unknown)} is not a use of proceeds BR-14 names; the uses are "
            f"{', '.join(USES)}.",
            {"unknown": unknown, "known": list(USES)},
        )
    return [use for use in USES if use in given]


def applies(program: Program) -> bool:
    """BR-14 and TB-25 state a use for BRRAG and TECH proceeds only."""
    return program in PROGRAMS


def check_use_of_proceeds(program: Program, uses: Sequence[str], ruleset: Ruleset) -> str:
    """The attestation check at approval of a sale `applies` to, in words."""
    required = ruleset.reading("pfa_use_attestation", READINGS) == "required"
    cite = "BR-14" if program is Program.BRRAG else "TB-25"
    if uses:
        words = ", ".join(USES[use] for use in normalize_uses(uses))
        return (
            f"The seller attests the proceeds fund New Jersey operating expenses: {words} ({cite})."
        )
    if required:
        raise UseOfProceedsMissingError(
            f"The seller has not attested that the proceeds fund its New Jersey operating "
            f"expenses ({cite}); this ruleset requires the attestation before approval.",
            {"program": program.value, "known": list(USES)},
        )
    return (
        f"No use-of-proceeds attestation is on file; the proceeds must fund the seller's "
        f"New Jersey operating expenses ({cite}), and misuse is a recapture basis."
    )
