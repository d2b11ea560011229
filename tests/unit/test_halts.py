"""Which certificates a notice halts (market.domain.rules.halts)."""

from __future__ import annotations

import pytest

from market.domain.rules.halts import (
    TradingHaltedError,
    ancestors_or_self,
    check_not_halted,
    descendants_or_self,
    halting_notices,
)

# root -> a -> a1, root -> b
PARENTS: dict[str, str | None] = {"root": None, "a": "root", "a1": "a", "b": "root"}


def test_a_notice_on_the_root_covers_the_whole_lineage() -> None:
    assert sorted(descendants_or_self("root", PARENTS)) == ["a", "a1", "b", "root"]


def test_a_notice_on_a_branch_covers_only_that_branch() -> None:
    assert descendants_or_self("a", PARENTS) == ["a", "a1"]
    assert ancestors_or_self("a1", PARENTS) == ["a1", "a", "root"]


def test_a_certificate_is_halted_by_notices_on_itself_or_an_ancestor_only() -> None:
    active = [("n1", "a"), ("n2", "b")]
    assert halting_notices("a1", PARENTS, active) == ["n1"]
    assert halting_notices("root", PARENTS, active) == []
    assert halting_notices("b", PARENTS, active) == ["n2"]


def test_a_halted_certificate_is_refused_with_the_notice_ids() -> None:
    check_not_halted("root", [])
    with pytest.raises(TradingHaltedError) as refused:
        check_not_halted("a1", ["n1"])
    assert refused.value.code == "trading_halted" and refused.value.details["notice_ids"] == ["n1"]


def test_a_parent_cycle_cannot_loop_forever() -> None:
    assert ancestors_or_self("x", {"x": "y", "y": "x"}) == ["x", "y"]
