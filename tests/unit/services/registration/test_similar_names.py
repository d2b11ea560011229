"""The review's "similar name": the words of a name without the company suffixes,
compared by difflib's ratio (services/registration/registration_views.py)."""

from __future__ import annotations

import pytest

from market.services.kernel.actor import PREPARER, VIEWER, Actor, PartyRoleError
from market.services.registration.registration_views import similar_names, words


def test_suffixes_and_punctuation_do_not_count() -> None:
    assert words("Pinelands Robotics, L.L.C.") == ["pinelands", "robotics", "l", "l", "c"]
    assert words("The Pinelands Robotics LLC") == ["pinelands", "robotics"]


@pytest.mark.parametrize(
    ("a", "b", "similar"),
    [
        ("Pinelands Robotics LLC", "Pinelands Robotics Inc", True),
        ("Pinelands Robotics LLC", "Pineland Robotic", True),
        ("Pinelands Robotics LLC", "Shore Point Labs", False),
        ("LLC", "Inc", False),  # nothing left to compare
    ],
)
def test_names_compare_by_their_words(a: str, b: str, similar: bool) -> None:
    assert similar_names(a, b) is similar


def test_a_preparer_prepares_but_does_not_sign_and_a_viewer_only_reads() -> None:
    preparer = Actor("u1", "participant", "pty_a", party_role=PREPARER)
    preparer.require_party("pty_a")  # preparing for its party is allowed
    with pytest.raises(PartyRoleError):
        preparer.require_signer()
    viewer = Actor("u2", "participant", "pty_a", party_role=VIEWER)
    viewer.require_reader_of("pty_a")
    with pytest.raises(PartyRoleError):
        viewer.require_party("pty_a")
    Actor("u3", "authority").require_signer()  # roles within a party are participants'
