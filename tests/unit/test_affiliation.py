"""TB-20, AMB-34 and the TB-4(2) parent test over an ownership graph."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from market.domain.errors import InvalidRequestError
from market.domain.rules.affiliation import (
    OwnershipGraph,
    Stake,
    _acyclic_holdings,
    _holding,
    _walk_holdings,
    affiliation,
    controlling_parents,
    holdings,
)
from market.domain.rulesets import A1178


def graph(*stakes: tuple[str, str, int, int]) -> OwnershipGraph:
    return OwnershipGraph.from_stakes(Stake(*s) for s in stakes)


def test_a_common_owner_of_5_percent_of_both_makes_them_affiliated() -> None:
    g = graph(("H", "buyer", 500, 0), ("H", "seller", 0, 600))
    result = affiliation(g, "buyer", "seller", A1178)
    assert result.affiliated
    assert result.reasons == [
        "H holds 5.00% of the votes and 0.00% of the value of buyer and 0.00% of the votes "
        "and 6.00% of the value of seller, at least 5% of both"
    ]
    assert result.paths == [["H", "buyer"], ["H", "seller"]]


def test_a_common_owner_just_under_5_percent_does_not_affiliate() -> None:
    g = graph(("H", "buyer", 499, 499), ("H", "seller", 5_000, 5_000))
    assert not affiliation(g, "buyer", "seller", A1178).affiliated


def test_indirect_stakes_multiply_along_a_chain_and_add_across_chains() -> None:
    # H -> M1 (50%) -> buyer (6%) gives 3%; H -> M2 (40%) -> buyer (5%) gives 2%: 5% in all.
    g = graph(
        ("H", "M1", 5_000, 5_000),
        ("M1", "buyer", 600, 600),
        ("H", "M2", 4_000, 4_000),
        ("M2", "buyer", 500, 500),
        ("H", "seller", 10_000, 10_000),
    )
    held = holdings(g, "buyer", 24)["H"]
    assert held.voting == Fraction(5, 100) and held.value == Fraction(5, 100)
    result = affiliation(g, "buyer", "seller", A1178)
    assert result.affiliated
    assert ["H", "M1", "buyer"] in result.paths and ["H", "M2", "buyer"] in result.paths


def test_a_buyer_holding_5_percent_of_the_seller_is_affiliated_by_its_own_stake() -> None:
    g = graph(("buyer", "seller", 500, 500))
    result = affiliation(g, "buyer", "seller", A1178)
    assert result.affiliated and "buyer holds 100.00% of the votes" in result.reasons[0]
    assert result.paths == [["buyer"], ["buyer", "seller"]]
    assert affiliation(g, "seller", "buyer", A1178).paths == [["buyer", "seller"], ["buyer"]]


def test_the_literal_reading_counts_only_third_party_owners() -> None:
    literal = replace(A1178, affiliation_mode="third_party_only")
    assert not affiliation(
        graph(("buyer", "seller", 900, 900)), "buyer", "seller", literal
    ).affiliated


def test_a_recorded_related_party_relation_affiliates() -> None:
    g = graph()
    result = affiliation(g, "b", "s", A1178, frozenset({("s", "b")}))
    assert result.affiliated and "IRC §267" in result.reasons[0]


def test_an_entity_related_to_one_party_that_holds_5_percent_of_the_other_affiliates() -> None:
    g = graph(("R", "s", 700, 700))
    related = frozenset({("b", "R"), ("b", "Q"), ("X", "Y")})
    result = affiliation(g, "b", "s", A1178, related)
    assert result.affiliated
    assert any("R, a related taxpayer of b" in r for r in result.reasons)
    assert ["R", "s"] in result.paths
    reverse = affiliation(g, "s", "b", A1178, related)
    assert reverse.affiliated
    assert not affiliation(graph(("R", "s", 100, 100)), "b", "s", A1178, related).affiliated


def test_cross_holdings_do_not_loop_forever() -> None:
    g = graph(
        ("A", "B", 5_000, 5_000),
        ("B", "A", 5_000, 5_000),
        ("B", "s", 800, 800),
        ("A", "b", 600, 600),
    )
    # A holds 4% of s through B, and more each time a chain goes round the A-B cycle: the
    # documented integrated-ownership reading counts those rounds up to the link bound.
    held = holdings(g, "s", A1178.affiliation_max_links)["A"].voting
    assert Fraction(5, 100) < held < Fraction(16, 300)
    result = affiliation(g, "b", "s", A1178)
    assert result.affiliated
    assert ["A", "B", "s"] in result.paths


def test_a_party_cannot_be_tested_against_itself() -> None:
    with pytest.raises(InvalidRequestError):
        affiliation(graph(), "a", "a", A1178)


@pytest.mark.parametrize("stake", [("a", "a", 1, 1), ("a", "b", -1, 0), ("a", "b", 0, 10_001)])
def test_self_ownership_and_stakes_outside_0_to_10000_bps_are_refused(
    stake: tuple[str, str, int, int],
) -> None:
    with pytest.raises(InvalidRequestError):
        graph(stake)


def test_controlling_parents_hold_at_least_half_directly_or_indirectly() -> None:
    g = graph(
        ("P", "M", 10_000, 10_000),
        ("M", "seller", 5_000, 3_000),
        ("Q", "seller", 2_000, 7_000),
        ("Z", "seller", 100, 100),
    )
    parents = controlling_parents(g, "seller")
    assert [p.owner for p in parents] == ["Q", "M", "P"]
    assert parents[1].voting == Fraction(1, 2)


stakes_strategy = st.lists(
    st.tuples(
        st.sampled_from("ABCDEFG"),
        st.sampled_from("ABCDEFG"),
        st.integers(0, 10_000),
        st.integers(0, 10_000),
    ).filter(lambda s: s[0] != s[1]),
    max_size=14,
)


@settings(max_examples=120, deadline=None)
@given(stakes_strategy, st.sampled_from("ABCDEFG"), st.sampled_from("ABCDEFG"))
def test_affiliation_is_symmetric(stakes: list[tuple[str, str, int, int]], a: str, b: str) -> None:
    if a == b:
        return
    g = graph(*stakes)
    assert affiliation(g, a, b, A1178).affiliated == affiliation(g, b, a, A1178).affiliated


def test_only_a_few_deciding_chains_are_listed() -> None:
    stakes = [("H", "seller", 10_000, 10_000)]
    for i in range(8):
        stakes += [("H", f"M{i}", 10_000, 10_000), (f"M{i}", "buyer", 100, 100)]
    result = affiliation(graph(*stakes), "buyer", "seller", A1178)
    assert result.affiliated
    assert len([p for p in result.paths if p[-1] == "buyer"]) == 5


def test_long_chains_are_exact_without_cycles_and_bounded_with_them() -> None:
    short = replace(A1178, affiliation_max_links=2)
    chain = [
        ("H", "M1", 10_000, 10_000),
        ("M1", "M2", 10_000, 10_000),
        ("M2", "buyer", 10_000, 10_000),
        ("H", "seller", 10_000, 10_000),
    ]
    assert affiliation(graph(*chain), "buyer", "seller", short).affiliated
    cyclic = graph(*chain, ("C", "M2", 0, 100), ("M2", "C", 100, 0))
    assert affiliation(cyclic, "buyer", "seller", A1178).affiliated
    assert not affiliation(cyclic, "buyer", "seller", short).affiliated


@settings(max_examples=100, deadline=None)
@given(stakes_strategy, st.sampled_from("ABCDEFG"))
def test_the_exact_and_the_bounded_methods_agree_on_graphs_without_cycles(
    stakes: list[tuple[str, str, int, int]], party: str
) -> None:
    acyclic = [s for s in stakes if s[0] < s[1]]  # owners sort before what they own
    g = graph(*acyclic)
    exact = _acyclic_holdings(g, party)
    assert exact is not None
    walked = _walk_holdings(g, party, 10)
    as_fractions = {o: _holding(o, r) for o, r in exact.items() if r[0] or r[1]}
    assert as_fractions == {o: _holding(o, r) for o, r in walked.items()}


def test_a_short_chain_reaching_an_owner_after_a_long_one_adds_exactly() -> None:
    g = graph(
        ("C", "buyer", 1_000, 1_000),
        ("B", "buyer", 1_000, 1_000),
        ("A", "B", 1_000, 1_000),
        ("H", "A", 1_000, 1_000),
        ("H", "C", 1_000, 1_000),
    )
    assert holdings(g, "buyer", 24)["H"].value == Fraction(11, 1_000)


def test_a_cycle_back_into_the_party_adds_nothing_to_its_own_stake() -> None:
    g = graph(("X", "buyer", 600, 600), ("buyer", "X", 5_000, 5_000), ("X", "seller", 600, 600))
    above = holdings(g, "buyer", 24)
    assert above["buyer"].voting == 1 and above["X"].voting == Fraction(6, 100)
    assert affiliation(g, "buyer", "seller", A1178).affiliated


def test_the_guard_refuses_an_affiliated_buyer_and_passes_an_independent_one() -> None:
    from market.domain.errors import AffiliatedPartiesError
    from market.domain.rules.affiliation import check_not_affiliated

    g = graph(("buyer", "seller", 500, 500))
    with pytest.raises(AffiliatedPartiesError) as caught:
        check_not_affiliated(g, "buyer", "seller", A1178)
    assert caught.value.details["paths"] == [["buyer"], ["buyer", "seller"]]
    check_not_affiliated(g, "buyer", "other", A1178)
