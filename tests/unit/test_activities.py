"""PT-1 "no duplicate use" and its scope (AMB-56): the creditable-activity registry."""

from dataclasses import replace

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.rules.activities import (
    ENTITY_AND_OWNERS,
    SAME_TAXPAYER,
    Conflict,
    PriorUse,
    conflicting_uses,
    normalize_activity_ids,
    parties_in_scope,
)
from market.domain.rules.affiliation import OwnershipGraph, Stake
from market.domain.rulesets import A1178


def use(party: str, root: str, *ids: str, app: str = "capp_1") -> PriorUse:
    return PriorUse(app, party, f"crt_{root}", f"DM_GIT-2014-{root}", root, "CBT", 2013, ids)


# Holding: H owns 60% of E; E owns 100% of S (a subsidiary); X owns 10% of H.
# U is unrelated; E also holds a 0-bps stake recorded by Z.
GRAPH = OwnershipGraph.from_stakes(
    [
        Stake("H", "E", 6_000, 6_000),
        Stake("E", "S", 10_000, 10_000),
        Stake("X", "H", 1_000, 1_000),
        Stake("Z", "E", 0, 0),
        Stake("U", "V", 5_000, 5_000),
    ]
)


def test_the_default_scope_is_the_entity_and_all_its_owners() -> None:
    assert A1178.pt1_activity_scope == ENTITY_AND_OWNERS


def test_the_default_scope_reaches_owners_and_owned_entities_at_any_depth() -> None:
    assert parties_in_scope(GRAPH, "E", ENTITY_AND_OWNERS) == {"E", "H", "X", "S", "Z"}
    assert parties_in_scope(GRAPH, "S", ENTITY_AND_OWNERS) == {"S", "E", "H", "X", "Z"}
    assert parties_in_scope(GRAPH, "X", ENTITY_AND_OWNERS) == {"X", "H", "E", "S"}
    assert parties_in_scope(GRAPH, "lonely", ENTITY_AND_OWNERS) == {"lonely"}


def test_cross_holdings_do_not_loop() -> None:
    cyclic = OwnershipGraph.from_stakes(
        [Stake("A", "B", 5_000, 5_000), Stake("B", "A", 5_000, 5_000)]
    )
    assert parties_in_scope(cyclic, "A", ENTITY_AND_OWNERS) == {"A", "B"}


def test_the_alternative_scope_is_the_taxpayer_alone() -> None:
    ruleset = replace(A1178, pt1_activity_scope=SAME_TAXPAYER)
    assert parties_in_scope(GRAPH, "E", ruleset.pt1_activity_scope) == {"E"}


def test_an_unknown_scope_is_refused() -> None:
    with pytest.raises(InvalidRequestError, match="unknown PT-1 activity scope"):
        parties_in_scope(GRAPH, "E", "everyone")


def test_a_shared_activity_of_another_credit_conflicts() -> None:
    prior = [use("E", "R1", "proj-A", "cohort-1"), use("H", "R2", "batch-9")]
    got = conflicting_uses(["cohort-1", "proj-A", "new"], "R3", prior)
    assert got == [Conflict(prior[0], ("cohort-1", "proj-A"))]


def test_several_earlier_uses_are_all_named_in_order() -> None:
    prior = [use("E", "R1", "A", app="capp_1"), use("H", "R2", "A", "B", app="capp_2")]
    got = conflicting_uses(["A", "B"], "R3", prior)
    assert [(c.use.application_id, c.activity_ids) for c in got] == [
        ("capp_1", ("A",)),
        ("capp_2", ("A", "B")),
    ]


def test_the_same_credit_again_is_not_a_duplicate() -> None:
    """A later year's use of the same certificate, or of another piece of its root."""
    assert conflicting_uses(["A"], "R1", [use("E", "R1", "A")]) == []


def test_no_activities_or_no_shared_activity_means_no_conflict() -> None:
    assert conflicting_uses([], "R2", [use("E", "R1", "A")]) == []
    assert conflicting_uses(["B"], "R2", [use("E", "R1", "A")]) == []
    assert conflicting_uses(["A"], "R2", []) == []
    assert conflicting_uses(["A"], "R2", [use("E", "R1")]) == []


def test_activity_ids_are_kept_in_order() -> None:
    assert normalize_activity_ids(None) == []
    assert normalize_activity_ids([]) == []
    assert normalize_activity_ids(("b", "a", "x" * 100)) == ["b", "a", "x" * 100]
    assert normalize_activity_ids([f"a{i}" for i in range(50)])[-1] == "a49"


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ([f"a{i}" for i in range(51)], "At most 50"),
        ([""], "1 to 100 characters"),
        (["x" * 101], "1 to 100 characters"),
        ([7], "1 to 100 characters"),
        (["a", "b", "a"], "must not repeat"),
    ],
)
def test_bad_activity_ids_are_refused(ids: list[object], message: str) -> None:
    with pytest.raises(InvalidRequestError, match=message):
        normalize_activity_ids(ids)  # type: ignore[arg-type]
