"""UTH-14 / AMB-17: validating an owners' agreement and choosing the allocation basis."""

from dataclasses import replace
from typing import Any

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.programs import Program
from market.domain.rules.pass_through import (
    AgreementOutOfOrderError,
    NotAPartnershipError,
    NotARecordedOwnerError,
    allocate_by_agreement,
    allocate_by_income_share,
    allocation_basis,
    validate_owners_agreement,
)
from market.domain.rulesets import A1178, UTH_PARTNERSHIP_BASES
from market.validation.error_codes import status_of

OWNERS = {"A", "B", "C"}


def validate(shares: list[tuple[str, Any]], **kw: Any) -> dict[str, int]:
    args: dict[str, Any] = {
        "party_id": "P",
        "entity_type": "partnership",
        "shares": shares,
        "recorded_owners": OWNERS,
        "filed_on": "2014-01-15",
    } | kw
    return validate_owners_agreement(**args)


def test_a_valid_agreement_gives_the_shares_by_owner() -> None:
    assert validate([("A", 7000), ("B", 3000)]) == {"A": 7000, "B": 3000}
    assert validate([("C", 10_000)], entity_type="llc") == {"C": 10_000}


def test_a_filing_on_or_after_the_one_in_force_replaces_it() -> None:
    assert validate([("A", 10_000)], current_filed_on="2014-01-15") == {"A": 10_000}
    assert validate([("A", 10_000)], current_filed_on="2013-12-31") == {"A": 10_000}
    with pytest.raises(AgreementOutOfOrderError) as e:
        validate([("A", 10_000)], current_filed_on="2014-01-16")
    assert status_of(e.value) == 409 and e.value.code == "agreement_out_of_order"


@pytest.mark.parametrize("entity_type", ["s_corporation", "c_corporation", "individual"])
def test_only_a_partnership_files_one(entity_type: str) -> None:
    with pytest.raises(NotAPartnershipError) as e:
        validate([("A", 10_000)], entity_type=entity_type)
    assert e.value.code == "not_a_partnership" and status_of(e.value) == 422


@pytest.mark.parametrize(
    "shares",
    [
        [],
        [("A", 7000), ("B", 2000)],  # 9000
        [("A", 7000), ("B", 3001)],  # 10001
        [("A", 10_000), ("B", 0)],
        [("A", 11_000), ("B", -1000)],
        [("A", 5000.0), ("B", 5000)],
        [("A", True), ("B", 9999)],
        [("A", "5000"), ("B", 5000)],
        [("A", 5000), ("A", 5000)],  # duplicate
        [("A", 5000), ("P", 5000)],  # the partnership itself
    ],
)
def test_bad_shares_are_refused(shares: list[tuple[str, Any]]) -> None:
    with pytest.raises(InvalidRequestError):
        validate(shares)


def test_every_owner_must_be_a_recorded_owner() -> None:
    with pytest.raises(NotARecordedOwnerError) as e:
        validate([("A", 5000), ("X", 5000)])
    assert e.value.code == "not_a_recorded_owner" and e.value.details["owner_party_id"] == "X"


def test_the_basis_is_the_agreement_only_for_a_uth_partnership_that_filed_one() -> None:
    assert allocation_basis(Program.UTH, "partnership", True, A1178) == "owners_agreement"
    assert allocation_basis(Program.UTH, "llc", True, A1178) == "owners_agreement"
    assert allocation_basis(Program.UTH, "partnership", False, A1178) == "income_share"
    assert allocation_basis(Program.UTH, "s_corporation", True, A1178) == "income_share"
    for program in Program:
        if program is not Program.UTH:
            assert allocation_basis(program, "partnership", True, A1178) == "income_share"


def test_the_income_share_reading_ignores_a_filed_agreement() -> None:
    assert A1178.uth_partnership_basis == "owners_agreement_if_filed"
    assert "income_share" in UTH_PARTNERSHIP_BASES
    rules = replace(A1178, uth_partnership_basis="income_share")
    assert allocation_basis(Program.UTH, "partnership", True, rules) == "income_share"
    unknown = replace(A1178, uth_partnership_basis="x")
    with pytest.raises(InvalidRequestError):
        allocation_basis(Program.UTH, "partnership", True, unknown)


def test_the_agreement_split_is_exact_to_the_cent() -> None:
    assert allocate_by_agreement(20_000_001, {"A": 7000, "B": 3000}) == {
        "A": 14_000_001,
        "B": 6_000_000,
    }
    assert allocate_by_agreement(1, {"A": 3334, "B": 3333, "C": 3333}) == {"A": 1, "B": 0, "C": 0}
    # The same rounding as by income share.
    shares = {"A": 3333, "B": 3333, "C": 3334}
    assert allocate_by_agreement(100, shares) == allocate_by_income_share(100, shares)
    assert sum(allocate_by_agreement(99_999, shares).values()) == 99_999


@pytest.mark.parametrize(
    ("amount", "shares"), [(-1, {"A": 10_000}), (100, {}), (100, {"A": 10_000, "B": 0})]
)
def test_the_agreement_split_refuses_bad_input(amount: int, shares: dict[str, int]) -> None:
    with pytest.raises(InvalidRequestError):
        allocate_by_agreement(amount, shares)
