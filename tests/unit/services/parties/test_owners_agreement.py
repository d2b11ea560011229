"""A partnership's owners' agreement over the FakeUnitOfWork (UTH-14, AMB-17): the
Authority records it for a partnership only, naming recorded owners whose shares are
positive and make 100%; a bad agreement writes nothing."""

from __future__ import annotations

import pytest

from market.domain.errors import DomainError
from market.services.kernel.errors import ForbiddenError
from market.services.parties.parties import NewOwnersAgreement, file_owners_agreement
from market.validation.error_codes import status_of
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services import world
from tests.unit.services.world import AUTHORITY_USER, participant


@pytest.fixture
def uow() -> FakeUnitOfWork:
    return FakeUnitOfWork()


@pytest.fixture
def firm(uow: FakeUnitOfWork) -> tuple[str, str, str, str]:
    """(the partnership, its 50% owner A, its 30% owner B, a stranger)."""
    firm = world.party(uow, "Partnership P", entity_type="partnership")
    a, b = world.party(uow, "A"), world.party(uow, "B")
    for owner, bps in ((a, 5000), (b, 3000), (world.party(uow, "C"), 2000)):
        world.owns(uow, owner, firm, bps, income_bps=bps)
    return firm, a, b, world.party(uow, "Stranger", entity_type="individual")


def _file(uow: FakeUnitOfWork, party: str, shares: list[tuple[str, int]]) -> None:
    with uow:
        file_owners_agreement(uow, AUTHORITY_USER, party, NewOwnersAgreement(shares, "2014-01-15"))
        uow.commit()


def test_an_agreement_of_recorded_owners_making_100_percent_is_filed(
    uow: FakeUnitOfWork, firm: tuple[str, str, str, str]
) -> None:
    party, a, b, _ = firm
    _file(uow, party, [(a, 9000), (b, 1000)])
    assert uow.types()[-1] == "OWNERS_AGREEMENT_FILED"


@pytest.mark.parametrize(
    ("shares", "code"),
    [
        pytest.param(["A", 7000, "B", 2000], "invalid_request", id="short of 100%"),
        pytest.param(["A", 7000, "B", 3001], "invalid_request", id="over 100%"),
        pytest.param(["A", 10_000, "B", 0], "invalid_request", id="a zero share"),
        pytest.param(["A", 11_000, "B", -1000], "invalid_request", id="a negative share"),
        pytest.param(["A", 5000, "A", 5000], "invalid_request", id="an owner twice"),
        pytest.param(["A", 5000, "P", 5000], "invalid_request", id="the partnership itself"),
        pytest.param(["A", 7000, "S", 3000], "not_a_recorded_owner", id="a stranger"),
    ],
)
def test_a_bad_agreement_is_refused_writing_nothing(
    uow: FakeUnitOfWork, firm: tuple[str, str, str, str], shares: list[object], code: str
) -> None:
    party, a, b, stranger = firm
    names = {"A": a, "B": b, "S": stranger, "P": party}
    pairs = [
        (names[str(o)], int(str(bps))) for o, bps in zip(shares[::2], shares[1::2], strict=True)
    ]
    before = list(uow.events)
    with pytest.raises(DomainError) as refused:
        _file(uow, party, pairs)
    assert (refused.value.code, status_of(refused.value)) == (code, 422)
    assert uow.events == before


def test_only_a_partnership_files_one(uow: FakeUnitOfWork) -> None:
    scorp = world.party(uow, "S corp", entity_type="s_corporation")
    owner = world.party(uow, "A")
    world.owns(uow, owner, scorp, 10_000)
    with pytest.raises(DomainError) as refused:
        _file(uow, scorp, [(owner, 10_000)])
    assert refused.value.code == "not_a_partnership"


def test_only_the_authority_files_one(uow: FakeUnitOfWork, firm: tuple[str, str, str, str]) -> None:
    party, a, b, _ = firm
    with uow, pytest.raises(ForbiddenError):
        file_owners_agreement(
            uow, participant(party), party, NewOwnersAgreement([(a, 7000), (b, 3000)], "2014-01-15")
        )
