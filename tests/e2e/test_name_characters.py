"""Names refuse every Unicode Bidi_Control and Default_Ignorable character (issue 27):
a party named with one is 400 and nothing is written; accents and other letters pass."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest

from market.domain.names import INVISIBLE
from tests.helpers import events, headers_for, party_body

REFUSED = [
    "\u061c",  # ARABIC LETTER MARK (Bidi_Control)
    "\u200b",  # ZERO WIDTH SPACE (Default_Ignorable)
    "\u200c",
    "\u200d",
    "\u2060",  # WORD JOINER
    "\u2064",
    "\ufeff",  # BYTE ORDER MARK
    "\u00ad",  # SOFT HYPHEN
    "\u034f",
    "\u3164",  # HANGUL FILLER
    "\ufe0f",  # VARIATION SELECTOR-16
    "\U000e0041",  # TAG LATIN CAPITAL LETTER A
]


@pytest.mark.parametrize("ch", REFUSED, ids=[f"U+{ord(c):04X}" for c in REFUSED])
def test_a_name_with_an_invisible_character_is_refused(client: Any, ch: str) -> None:
    eda = headers_for(client, client.application.extensions["market.engine"], "authority")
    before = events(client.application.extensions["market.engine"])
    r = client.post("/api/v1/parties", json=party_body(name=f"Garden{ch} State"), headers=eda)
    assert r.status_code == 400, r.json
    assert events(client.application.extensions["market.engine"]) == before


def test_letters_of_every_script_pass(client: Any) -> None:
    eda = headers_for(client, client.application.extensions["market.engine"], "authority")
    for name in ("Société Générale NJ", "Müller & Søn", "東京 Biotech", "دبي Holdings"):
        r = client.post("/api/v1/parties", json=party_body(name=name), headers=eda)
        assert r.status_code == 201, (name, r.json)


def test_the_pattern_covers_every_format_character_that_is_invisible() -> None:
    """Every Cf (format) character in the BMP that renders as nothing is refused; the
    few visible Cf ones (Arabic number signs, U+06DD ...) are not names' problem."""
    visible_format = {
        *range(0x0600, 0x0606),
        0x06DD,
        0x070F,
        0x0890,
        0x0891,
        0x08E2,
        0x110BD,
        0x110CD,
        0xFFF9,
        0xFFFA,
        0xFFFB,
    }
    missed = [
        f"U+{cp:04X}"
        for cp in range(0x110000)
        if unicodedata.category(chr(cp)) == "Cf"
        and cp not in visible_format
        and not (0x13430 <= cp <= 0x1343F or 0x1BCA0 <= cp <= 0x1BCA3 or 0x1D173 <= cp <= 0x1D17A)
        and not INVISIBLE.search(chr(cp))
    ]
    assert missed == []


def test_a_registrations_names_are_held_to_the_same_rule(client: Any) -> None:
    """Approval registers the party under its legal name: an invisible character there
    (or in an officer's or affiliate's name) is refused when the business asks to join."""
    from tests.e2e.test_registration_api import body

    engine = client.application.extensions["market.engine"]
    before = events(engine)
    for where in (
        {"legal_name": "Pinelands\u200b Robotics LLC"},
        {"officers": [{"name": "Ada\u2060 Pine", "title": "CEO"}]},
        {"affiliates": [{"name": "Pinelands\ufeff Holdings", "relationship": "parent"}]},
    ):
        r = client.post("/api/v1/registrations", json=body(**where))
        assert r.status_code == 400 and r.json["error"]["code"] == "validation_failed", r.json
        assert "invisible" in str(r.json["error"]["details"]), r.json
    assert events(engine) == before
