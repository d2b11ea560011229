"""PT-7 / AMB-53: an individual buys a credit of the bill directly (any program: §40
reaches BRRAG, UTH and TECH use on GIT too, AMB-58) only under the Director's exception
(the default reading); "blocked" never, "allowed" always."""

from __future__ import annotations

from dataclasses import replace

import pytest

from market.domain.programs import Program
from market.domain.rules.individuals import (
    IndividualPurchaseError,
    buys_directly,
    check_individual_buyer,
)
from market.domain.rulesets import A1178

BLOCKED = replace(A1178, name="A1178-blocked", git_direct_individual_purchase="blocked")
ALLOWED = replace(A1178, name="A1178-allowed", git_direct_individual_purchase="allowed")


def test_an_individual_needs_the_directors_exception_by_default() -> None:
    with pytest.raises(IndividualPurchaseError) as refused:
        check_individual_buyer(Program.DM_GIT, "individual", False, A1178)
    assert refused.value.code == "individual_purchase_not_allowed"
    assert "recorded no Director's exception" in refused.value.message
    said = check_individual_buyer(Program.DM_GIT, "individual", True, A1178)
    assert "under the Director's exception" in said and "ratio is 1" in said


def test_a_business_entity_is_not_concerned() -> None:
    for entity in ("llc", "c_corporation", "sole_proprietorship"):
        said = check_individual_buyer(Program.DM_GIT, entity, False, A1178)
        assert "is a business entity" in said


@pytest.mark.parametrize("program", list(Program))
def test_every_program_needs_the_exception_not_dm_git_alone(program: Program) -> None:
    # Issue 26: a UTH purchase and a BRRAG transfer to an individual went through.
    with pytest.raises(IndividualPurchaseError) as refused:
        check_individual_buyer(program, "individual", False, A1178)
    assert f"buys a {program} credit through a business entity" in refused.value.message
    assert refused.value.details == {
        "program": program.value,
        "reading": "director_exception_only",
    }
    assert "ratio is 1" in check_individual_buyer(program, "individual", True, A1178)


def test_who_buys_directly_has_ratio_one() -> None:
    assert buys_directly("individual", True, A1178)
    assert not buys_directly("individual", False, A1178)
    assert not buys_directly("llc", True, ALLOWED)
    assert buys_directly("individual", False, ALLOWED)
    assert not buys_directly("individual", True, BLOCKED)


def test_the_other_readings() -> None:
    with pytest.raises(IndividualPurchaseError, match="allows none"):
        check_individual_buyer(Program.DM_GIT, "individual", True, BLOCKED)
    said = check_individual_buyer(Program.UTH, "individual", False, ALLOWED)
    assert "as the ruleset allows" in said
