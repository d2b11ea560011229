"""BR-14 / TB-25: the seller's use-of-proceeds attestation."""

from dataclasses import replace

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.programs import Program
from market.domain.rules import proceeds
from market.domain.rulesets import A1178

REQUIRED = replace(A1178, pfa_use_attestation="required")


def test_uses_are_kept_once_in_the_statute_order_and_unknown_ones_refused() -> None:
    got = proceeds.normalize_uses(["salaries", "fixed_assets", "salaries"])
    assert got == ["fixed_assets", "salaries"]
    assert proceeds.normalize_uses(None) == []
    with pytest.raises(InvalidRequestError, match="yachts is not a use of proceeds"):
        proceeds.normalize_uses(["salaries", "yachts"])


def test_an_attestation_is_said_in_words_with_the_programs_rule() -> None:
    said = proceeds.check_use_of_proceeds(
        Program.BRRAG, ["working_capital", "research_and_development"], A1178
    )
    assert said == (
        "The seller attests the proceeds fund New Jersey operating expenses: working "
        "capital, research and development (BR-14)."
    )
    assert "(TB-25)" in proceeds.check_use_of_proceeds(Program.TECH, ["salaries"], REQUIRED)


def test_by_default_a_missing_attestation_is_noted_and_required_refuses_it() -> None:
    assert A1178.pfa_use_attestation == "record"
    noted = proceeds.check_use_of_proceeds(Program.TECH, [], A1178)
    assert noted.startswith("No use-of-proceeds attestation is on file")
    with pytest.raises(proceeds.UseOfProceedsMissingError, match="BR-14") as refused:
        proceeds.check_use_of_proceeds(Program.BRRAG, [], REQUIRED)
    assert refused.value.code == "use_of_proceeds_missing"
    with pytest.raises(InvalidRequestError, match="unknown pfa_use_attestation"):
        proceeds.check_use_of_proceeds(Program.TECH, [], replace(A1178, pfa_use_attestation="x"))


def test_only_brrag_and_tech_state_a_use_for_the_proceeds() -> None:
    covered = {program for program in Program if proceeds.applies(program)}
    assert covered == {Program.BRRAG, Program.TECH}
