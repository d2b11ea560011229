"""The party-name rule (market/domain/names.py): a name with an invisible or
direction-changing character is refused, naming the character and where it is."""

from __future__ import annotations

from market.domain.names import invisible_problem


def test_a_plain_name_passes() -> None:
    assert invisible_problem("Café Électronique, Inc.") is None


def test_a_zero_width_space_is_named_with_its_position() -> None:
    problem = invisible_problem("Acme\u200b Corp")
    assert problem is not None and "U+200B at position 5" in problem


def test_a_right_to_left_override_and_a_tag_character_are_refused() -> None:
    assert invisible_problem("\u202eproC emcA") is not None
    assert invisible_problem("Acme\U000e0041") is not None
