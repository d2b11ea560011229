"""AMB-63: control through a chain of majority holdings (rules/control.py)."""

from __future__ import annotations

from market.domain.rules.affiliation import OwnershipGraph, Stake
from market.domain.rules.control import Control, controllers


def graph(*stakes: tuple[str, str, int, int]) -> OwnershipGraph:
    return OwnershipGraph.from_stakes(Stake(*s) for s in stakes)


def test_the_rules_example_p_controls_the_seller_through_h() -> None:
    g = graph(("P", "H", 8000, 8000), ("H", "S", 6000, 6000))
    assert controllers(g, "S", 5000, 24) == [
        Control("H", ("H", "S")),
        Control("P", ("P", "H", "S")),
    ]


def test_what_a_controller_and_its_controlled_hold_together_counts() -> None:
    # P holds 20% of S and controls H1 (votes 60%), which holds 35% of S: 55% of the votes.
    g = graph(("P", "S", 2000, 2000), ("P", "H1", 6000, 1000), ("H1", "S", 3500, 3500))
    found = {c.controller: c.chain for c in controllers(g, "S", 5000, 24)}
    assert found == {"P": ("P", "H1", "S")}


def test_a_minority_link_breaks_the_chain_and_value_alone_can_control() -> None:
    g = graph(("P", "H", 4999, 4999), ("H", "S", 10000, 10000), ("Q", "S", 0, 5000))
    found = {c.controller: c.chain for c in controllers(g, "S", 5000, 24)}
    assert found == {"H": ("H", "S"), "Q": ("Q", "S")}


def test_cross_holdings_end() -> None:
    g = graph(("A", "B", 6000, 6000), ("B", "A", 6000, 6000), ("B", "S", 6000, 6000))
    found = {c.controller: c.chain for c in controllers(g, "S", 5000, 24)}
    assert found == {"A": ("A", "B", "S"), "B": ("B", "S")}
