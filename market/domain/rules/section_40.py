"""PT-2 / PT-7: when the §40 liability-share ratio limits a GIT application, and how.

§40 reaches every GIT credit the bill authorizes: BRRAG, UTH and TECH use on GIT returns
(AMB-58), DM_GIT, and a DM_CBT certificate used against GIT (AMB-21), for purchasers too
(AMB-57). The ratio is never skipped: a GIT application of such a credit gives Cap40 or the
figures to compute it, unless the holder is an individual buying directly, whose ratio is
1 (AMB-53): then it is its own credited business entity.
"""

from __future__ import annotations

from market.domain.errors import DomainError
from market.domain.programs import Program, TaxType

SECTION_40_PROGRAMS = frozenset(Program)  # AMB-21, AMB-57, AMB-58: no credit is outside
FIGURES = ("entity_income_cents", "category_amounts_cents", "other_categories_net_cents")


class Section40FiguresRequiredError(DomainError):
    code = "section_40_figures_required"


def section_40_basis(
    program: Program, tax_type: TaxType, figures_given: bool, direct_individual: bool
) -> str:
    """How Cap40 is found: "none" (no §40 limit), "given" (cap40_cents or the figures),
    "ratio_one" (an individual buying directly, AMB-53); refused when it cannot be."""
    if tax_type is not TaxType.GIT or program not in SECTION_40_PROGRAMS:
        return "none"
    if figures_given:
        return "given"
    if direct_individual:
        return "ratio_one"
    raise Section40FiguresRequiredError(
        f"Using a {program} credit against GIT is limited by the §40 liability-share ratio "
        "of the credited business entity (PT-2; AMB-57, AMB-58), which the ledger cannot "
        "compute without the taxpayer's income: send section_40 {entity_income_cents, "
        "category_amounts_cents, other_categories_net_cents} or cap40_cents.",
        {"missing": ["section_40", "cap40_cents"], "figures": list(FIGURES)},
    )
