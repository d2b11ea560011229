"""Minimum consideration per transfer (CMN-5, CMN-7, BR-8, UTH-23, DMG-11, DMC-9, TB-22, AMB-5).

The test is done in integers, ``100 * consideration >= pct * face``, so no rounding can
turn a 79.99999% offer into an 80% one.
"""

from __future__ import annotations

from fractions import Fraction

from market.domain.errors import BelowMinimumConsiderationError, InvalidRequestError
from market.domain.programs import Program
from market.domain.rulesets import Ruleset
from market.domain.values import format_cents, percent_text


def _check_inputs(consideration_cents: int, face_cents: int) -> None:
    if face_cents <= 0 or consideration_cents < 0:
        raise InvalidRequestError(
            "a transfer needs a positive face amount and a non-negative consideration",
            {"face_cents": face_cents, "consideration_cents": consideration_cents},
        )


def minimum_consideration_cents(program: Program, face_cents: int, ruleset: Ruleset) -> int:
    pct = ruleset.min_consideration(program)
    return -(-pct * face_cents // 100)


def meets_minimum_consideration(
    program: Program,
    consideration_cents: int,
    face_cents: int,
    ruleset: Ruleset,
    relocating: bool = True,
) -> bool:
    """``relocating`` matters only for BRRAG under the literal reading of AMB-5."""
    _check_inputs(consideration_cents, face_cents)
    if program is Program.BRRAG and not (relocating or ruleset.brrag_min_consideration_all_sellers):
        return True
    return 100 * consideration_cents >= ruleset.min_consideration(program) * face_cents


def check_minimum_consideration(
    program: Program,
    consideration_cents: int,
    face_cents: int,
    ruleset: Ruleset,
    relocating: bool = True,
) -> None:
    if meets_minimum_consideration(program, consideration_cents, face_cents, ruleset, relocating):
        return
    pct = ruleset.min_consideration(program)
    floor_cents = minimum_consideration_cents(program, face_cents, ruleset)
    ratio = Fraction(consideration_cents, face_cents)
    raise BelowMinimumConsiderationError(
        f"{format_cents(consideration_cents)} is {percent_text(ratio)} of "
        f"{format_cents(face_cents)}; {program} requires at least {pct}% "
        f"({format_cents(floor_cents)})",
        {
            "program": str(program),
            "pct": pct,
            "floor_cents": floor_cents,
            "consideration_cents": consideration_cents,
            "face_cents": face_cents,
            "ratio": str(ratio),
            "ratio_percent": percent_text(ratio),
        },
    )
