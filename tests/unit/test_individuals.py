"""PT-7 / AMB-53: an individual buys a DM_GIT credit directly only under the Director's
exception (the default reading); "blocked" never, "allowed" always."""

from __future__ import annotations

from dataclasses import replace

import pytest

from market.domain.programs import Program
from market.domain.rules.individuals import IndividualPurchaseError, check_individual_buyer
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


def test_a_business_or_another_program_is_not_concerned() -> None:
    for program, entity in ((Program.DM_GIT, "llc"), (Program.BRRAG, "individual")):
        assert "is not an individual" in check_individual_buyer(program, entity, False, A1178)


def test_the_other_readings() -> None:
    with pytest.raises(IndividualPurchaseError, match="allows none"):
        check_individual_buyer(Program.DM_GIT, "individual", True, BLOCKED)
    assert "exception" in check_individual_buyer(Program.DM_GIT, "individual", False, ALLOWED)
