"""PT-2 / PT-7 / AMB-57 / AMB-58 / AMB-21: every GIT application of a credit of the bill is
limited by the §40 ratio: given (Cap40 or its figures), ratio 1 for an individual buying
directly, refused with `section_40_figures_required` otherwise; never skipped."""

from __future__ import annotations

import pytest

from market.domain.programs import Program, TaxType
from market.domain.rules.section_40 import Section40FiguresRequiredError, section_40_basis
from market.validation.error_codes import status_of


@pytest.mark.parametrize("program", list(Program))
def test_a_git_use_without_the_figures_is_refused_for_every_program(program: Program) -> None:
    # Issue 26: a UTH credit (an individual) and DM_GIT (a sole proprietorship) on GIT with
    # no figures got their full amount with no Cap40.
    with pytest.raises(Section40FiguresRequiredError) as refused:
        section_40_basis(program, TaxType.GIT, figures_given=False, direct_individual=False)
    assert status_of(refused.value) == 400
    assert refused.value.code == "section_40_figures_required"
    assert f"Using a {program} credit against GIT" in refused.value.message
    assert refused.value.details["figures"] == [
        "entity_income_cents",
        "category_amounts_cents",
        "other_categories_net_cents",
    ]


def test_figures_given_an_individual_buying_directly_and_other_taxes() -> None:
    assert section_40_basis(Program.BRRAG, TaxType.GIT, True, False) == "given"
    assert section_40_basis(Program.BRRAG, TaxType.GIT, True, True) == "given"
    assert section_40_basis(Program.TECH, TaxType.GIT, False, True) == "ratio_one"
    assert section_40_basis(Program.DM_CBT, TaxType.CBT, False, False) == "none"
    assert section_40_basis(Program.UTH, TaxType.IPT, False, False) == "none"
