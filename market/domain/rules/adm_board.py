"""ADM-9 at closing (N.J.A.C. 19:31N-1.6): a BRRAG sale's final approval follows the
Board's approval of the seller's application once it has taken effect (10 New Jersey
working days after the Governor received the minutes, or earlier by the Governor's
approval; never after a veto), and the seller's sales approved since the ADM rules came
into force, this one with them, stay within the amounts the Board approved."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.casefile_errors import BoardApprovalExceededError, StepOutOfOrderError
from market.domain.values import format_cents


def check_sale(
    in_effect_cents: Sequence[int], awaiting_until: str | None, sold_cents: int, amount_cents: int
) -> None:
    """Refuse a BRRAG sale's final approval the Board's actions in effect do not cover.
    `awaiting_until`: the day the earliest approval still before the Governor takes effect."""
    if not in_effect_cents:
        waiting = (
            f" The Board's approval takes effect on {awaiting_until}, unless the Governor "
            "approves earlier or vetoes."
            if awaiting_until
            else ""
        )
        raise StepOutOfOrderError(
            "Final approval of a BRRAG sale follows the Board's approval in effect (ADM-9)."
            + waiting,
            {"needs": "board_action", "takes_effect_on": awaiting_until},
        )
    room = sum(in_effect_cents) - sold_cents
    if amount_cents > room:
        raise BoardApprovalExceededError(
            f"The Board approved {format_cents(sum(in_effect_cents))} for this seller; "
            f"{format_cents(sold_cents)} is sold, so {format_cents(max(room, 0))} is left, "
            f"less than {format_cents(amount_cents)} (ADM-9).",
            {
                "approved_cents": sum(in_effect_cents),
                "sold_cents": sold_cents,
                "amount_cents": amount_cents,
            },
        )
