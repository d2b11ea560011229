"""Names people read in the ledger (a party's name): no character that is invisible or
reorders text. Refused: every Bidi_Control character (U+061C, U+200E, U+200F,
U+202A-U+202E, U+2066-U+2069) and every Default_Ignorable_Code_Point (U+00AD soft
hyphen, U+034F, U+115F, U+1160, U+17B4, U+17B5, U+180B-U+180F, U+200B-U+200F zero widths,
U+2060-U+206F, U+3164, U+FE00-U+FE0F variation selectors, U+FEFF, U+FFA0, U+FFF0-U+FFF8,
U+1BCA0-U+1BCA3, U+1D173-U+1D17A, U+E0000-U+E0FFF tags), as Unicode 15 lists them
(DerivedCoreProperties.txt, PropList.txt): two names that look alike must be alike."""

from __future__ import annotations

import re

INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def invisible_problem(value: str) -> str | None:
    """Why a name is refused (the first such character and where), or None."""
    found = INVISIBLE.search(value)
    if found is None:
        return None
    return (
        "A name may not contain invisible or direction-changing characters "
        f"(U+{ord(found.group()):04X} at position {found.start() + 1})."
    )
