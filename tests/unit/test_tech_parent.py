"""TB-4(2) / AMB-39: a recorded controller of 50% or more with positive net operating
income in either of the two previous full years bars a TECH seller, with the path."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from market.domain.rules.affiliation import OwnershipGraph, Stake
from market.domain.rules.tech_parent import Owner, profitable_parents
from market.domain.rulesets import A1178

FILED = date(2013, 3, 15)  # the two previous full years: 2011 and 2012
PROFIT = {2011: -5, 2012: 100}


def graph(*stakes: tuple[str, str, int, int]) -> OwnershipGraph:
    return OwnershipGraph.from_stakes(Stake(*s) for s in stakes)


def test_an_indirect_profitable_corporate_parent_bars_the_seller_with_its_path() -> None:
    g = graph(("Parent", "Mid", 8000, 8000), ("Mid", "Seller", 7000, 7000))
    owners = {
        "Parent": Owner("Parent Corp", "c_corporation", PROFIT),
        "Mid": Owner("Mid LLC", "llc", {}),
    }
    [found] = profitable_parents(g, "Seller", owners, FILED, A1178)
    assert found.owner_party_id == "Parent" and found.profitable_years == (2012,)
    assert found.paths == (("Parent", "Mid", "Seller"),)
    assert "Parent Corp (Parent) holds 56.00% of the votes" in found.text
    assert "through Parent > Mid > Seller" in found.text and "in 2012 (TB-4(2))" in found.text


def test_below_half_losses_outside_the_lookback_or_no_record_do_not_bar() -> None:
    g = graph(("A", "Seller", 4999, 4999), ("B", "Seller", 5000, 0), ("C", "Seller", 6000, 0))
    owners = {
        "A": Owner("A", "c_corporation", PROFIT),  # 49.99%
        "B": Owner("B", "c_corporation", {2010: 100, 2012: -1, 2013: 100}),  # outside
    }  # C is not on record
    assert profitable_parents(g, "Seller", owners, FILED, A1178) == []


def test_only_corporations_count_unless_the_ruleset_reads_any_controller() -> None:
    g = graph(("Fund", "Seller", 10000, 10000))
    owners = {"Fund": Owner("Fund LP", "partnership", PROFIT)}
    assert profitable_parents(g, "Seller", owners, FILED, A1178) == []
    wide = replace(A1178, name="A1178-any", tech_parent_reading="any_controller")
    assert [p.owner_party_id for p in profitable_parents(g, "Seller", owners, FILED, wide)] == [
        "Fund"
    ]
    odd = replace(A1178, name="A1178-odd", tech_parent_reading="nobody")
    with pytest.raises(Exception, match="unknown tech_parent_reading"):
        profitable_parents(g, "Seller", owners, FILED, odd)


# AMB-63: P holds 80% of H (loss-making), H holds 60% of the seller: P owns 48% but controls.
CHAIN = (("P", "H", 8000, 8000), ("H", "Seller", 6000, 6000))
CHAIN_OWNERS = {
    "P": Owner("Profitable Corp", "c_corporation", PROFIT),
    "H": Owner("Holding Co", "c_corporation", {2011: -10, 2012: -20}),
}


def test_control_passes_through_a_chain_of_majority_holdings() -> None:
    [found] = profitable_parents(graph(*CHAIN), "Seller", CHAIN_OWNERS, FILED, A1178)
    assert found.owner_party_id == "P" and found.profitable_years == (2012,)
    assert "holds 48.00% of the votes and 48.00% of the value" in found.text
    assert "controls it through the chain of majority holdings P > H > Seller (AMB-63)" in (
        found.text
    )


def test_the_ownership_only_reading_multiplies_and_lets_the_chain_through() -> None:
    only = replace(A1178, name="A1178-owned", tech_parent_chain_reading="ownership_only")
    assert profitable_parents(graph(*CHAIN), "Seller", CHAIN_OWNERS, FILED, only) == []
    odd = replace(A1178, name="A1178-odd", tech_parent_chain_reading="votes")
    with pytest.raises(Exception, match="unknown tech_parent_chain_reading"):
        profitable_parents(graph(*CHAIN), "Seller", CHAIN_OWNERS, FILED, odd)


def test_a_majority_owner_without_control_still_bars_by_ownership() -> None:
    # 45% directly and 45% of H, which holds 20%: 54% owned, no majority link.
    g = graph(("P", "Seller", 4500, 4500), ("P", "H", 4500, 4500), ("H", "Seller", 2000, 2000))
    [found] = profitable_parents(g, "Seller", CHAIN_OWNERS, FILED, A1178)
    assert found.owner_party_id == "P" and "controls" not in found.text
    assert "holds 54.00% of the votes" in found.text
