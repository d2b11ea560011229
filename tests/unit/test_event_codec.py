"""What an event field's annotation lets through (market.domain.events.codec), and the
rules an event class is registered under."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar

import pytest

from market.domain.events import DomainEvent
from market.domain.events.base import event
from market.domain.events.certificates import Parent
from market.domain.events.codec import IsoDate, checker


def test_a_list_field_checks_that_it_is_a_list_and_each_item() -> None:
    check = checker(Sequence[int])
    assert check([1, 2]) is None and check((1,)) is None
    assert check("12") == "'12' is not a list"
    assert check([1, "2"]) == "item 1: '2' is not int"


def test_an_object_field_checks_its_keys_and_values() -> None:
    check = checker(Mapping[str, int])
    assert check({"a": 1}) is None
    assert check([("a", 1)]) == "[('a', 1)] is not an object"
    assert check({1: 1}) == "key 1 is not a string"
    assert check({"a": None}) == "a: None is not int"


def test_a_union_a_literal_a_date_and_any() -> None:
    assert checker(int | str)(1.5) == "1.5 is not int and 1.5 is not str"
    assert checker(int | None)(None) is None
    assert checker(IsoDate)("2014-09-01") is None
    assert checker(IsoDate)(20140901) == "20140901 is not str"
    assert checker(Annotated[str, "a note"])("any text") is None
    assert checker(Any)(object()) is None


def test_an_annotation_no_payload_can_hold_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="no payload check"):
        checker(float)
    with pytest.raises(TypeError, match="no payload check"):
        checker(set[str])


def test_two_classes_for_one_type_are_refused() -> None:
    class Again(DomainEvent):
        TYPE: ClassVar[str] = "LISTING_WITHDRAWN"
        listing_id: str

    with pytest.raises(RuntimeError, match="two event classes for LISTING_WITHDRAWN"):
        event(Again)


def test_a_version_above_1_needs_an_upcaster_for_every_step() -> None:
    class Skipping(DomainEvent):
        TYPE: ClassVar[str] = "TEST_SKIPPING"
        VERSION: ClassVar[int] = 3
        value: int

        @staticmethod
        def upcast_v1_v2(payload: dict[str, Any]) -> dict[str, Any]:
            return payload

    with pytest.raises(RuntimeError, match="Skipping lacks upcast_v2_v3"):
        event(Skipping)


def test_a_parent_is_read_from_its_certificate_row() -> None:
    row = {"id": "crt_1", "root_id": "crt_0", "original_holder_party_id": "pty_1", "x": 1}
    assert Parent.of(row) == Parent("crt_1", "crt_0", "pty_1")
