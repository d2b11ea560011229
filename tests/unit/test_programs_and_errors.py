import pytest

from market.domain import errors
from market.domain.programs import (
    Program,
    TaxType,
    buyer_tax_types,
    check_tax_type,
    waiver_statement,
)


def test_buyer_tax_types_follow_the_cross_program_matrix() -> None:
    assert buyer_tax_types(Program.BRRAG) == {TaxType.CBT, TaxType.GIT, TaxType.IPT}
    assert buyer_tax_types(Program.UTH) == {TaxType.CBT, TaxType.GIT, TaxType.IPT}
    for program in (Program.DM_GIT, Program.DM_CBT, Program.TECH):
        assert buyer_tax_types(program) == {TaxType.CBT, TaxType.GIT}


def test_insurance_premiums_tax_cannot_use_a_digital_media_credit() -> None:
    check_tax_type(Program.UTH, TaxType.IPT)
    with pytest.raises(errors.TaxTypeNotAllowedError) as caught:
        check_tax_type(Program.DM_GIT, TaxType.IPT)
    assert caught.value.details["allowed"] == ["CBT", "GIT"]


def test_waiver_statements_name_the_amount_and_the_holder() -> None:
    text = waiver_statement(Program.UTH, 240_000_000, "Acme Co")
    assert "Acme Co" in text and "$2,400,000.00" in text and "C.34:1B-209.1" in text
    assert "§20(c)" in waiver_statement(Program.DM_GIT, 1, "X")
    assert "C.54:10A-5.39(d)" in waiver_statement(Program.DM_CBT, 1, "X")
    assert "AMB-8" in waiver_statement(Program.BRRAG, 1, "X")


def test_a_tech_surrender_has_no_waiver_statement() -> None:
    assert waiver_statement(Program.TECH, 1, "X") == ""


@pytest.mark.parametrize(
    ("cls", "code"),
    [
        (errors.BelowMinimumConsiderationError, "below_minimum_consideration"),
        (errors.AffiliatedPartiesError, "affiliated_parties"),
        (errors.InsufficientBalanceError, "insufficient_balance"),
        (errors.CapExceededError, "cap_exceeded"),
        (errors.LifetimeCapExceededError, "lifetime_cap_exceeded"),
        (errors.IneligibleSellerError, "ineligible_seller"),
        (errors.ApplicationDeadlinePassedError, "application_deadline_passed"),
        (errors.TaxTypeNotAllowedError, "tax_type_not_allowed"),
        (errors.ResaleNotAllowedError, "resale_not_allowed"),
        (errors.InvalidRequestError, "invalid_request"),
    ],
)
def test_every_domain_error_carries_its_stable_code(
    cls: type[errors.DomainError], code: str
) -> None:
    error = cls("message", {"k": 1})
    assert (error.code, error.message, error.details) == (code, "message", {"k": 1})
    assert not hasattr(error, "status")  # the API maps the code to its status
    assert str(error) == "message"
    assert cls("bare").details == {}


def test_a_ruleset_may_leave_the_brrag_waiver_off_since_the_statute_needs_none() -> None:
    assert waiver_statement(Program.BRRAG, 1, "X", print_brrag_waiver=False) == ""
    assert waiver_statement(Program.UTH, 1, "X", print_brrag_waiver=False) != ""
