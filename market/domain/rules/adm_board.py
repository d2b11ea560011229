"""ADM-9 at closing (N.J.A.C. 19:31N-1.6): a BRRAG sale's final approval draws on one Board
approval of the seller's application for it, in effect on the exchange date (10 New
Jersey working days after the Governor received the minutes, or earlier by the
Governor's approval; never after a veto) and for at least the sale's amount.

The Board acts on an application, and an application is one sale: its preliminary
approval's conditions include "a statement dated the day of closing", the closing of that
sale. So approvals are not pooled: each approved sale draws on one approval, and an
approval drawn on is spent. Which one is not stored but follows from the ledger: the
seller's sales approved since the ADM rules came into force, in order, each draw the
first approval (in submission order, ADM-9's order of review) not yet drawn on that was
in effect on its exchange date and covers its amount."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from market.domain.casefile_errors import BoardApprovalExceededError, StepOutOfOrderError
from market.domain.values import format_cents


@dataclass(frozen=True)
class Approval:
    action_id: str
    amount_cents: int
    effective_on: date | None  # the day it takes (or took) effect; None once vetoed


@dataclass(frozen=True)
class Sale:
    amount_cents: int
    exchange_date: date


def _in_effect(a: Approval, on: date) -> bool:
    return a.effective_on is not None and a.effective_on <= on


def drawn(approvals: Sequence[Approval], sales: Sequence[Sale]) -> set[str]:
    """The approvals (in submission order) the approved `sales` (in order) drew on."""
    used: set[str] = set()
    for sale in sales:
        for a in approvals:
            fits = a.amount_cents >= sale.amount_cents and _in_effect(a, sale.exchange_date)
            if a.action_id not in used and fits:
                used.add(a.action_id)
                break
    return used


def check_sale(
    approvals: Sequence[Approval], sold: Sequence[Sale], amount_cents: int, on: date
) -> str:
    """The Board approval a BRRAG sale of `amount_cents` exchanged `on` draws on, after the
    seller's approved sales `sold`; refused if none is in effect or none covers it."""
    used = drawn(approvals, sold)
    free = [a for a in approvals if a.action_id not in used]
    in_effect = [a for a in free if _in_effect(a, on)]
    if not in_effect:
        later = sorted(a.effective_on for a in free if a.effective_on is not None)
        waiting = (
            f" The Board's approval takes effect on {later[0].isoformat()}, unless the "
            "Governor approves earlier or vetoes."
            if later
            else ""
        )
        raise StepOutOfOrderError(
            "Final approval of a BRRAG sale follows the Board's approval of it, in effect "
            "(ADM-9)." + waiting,
            {"needs": "board_action", "takes_effect_on": later[0].isoformat() if later else None},
        )
    for a in in_effect:
        if a.amount_cents >= amount_cents:
            return a.action_id
    largest = max(a.amount_cents for a in in_effect)
    raise BoardApprovalExceededError(
        f"The Board approvals in effect that no sale has drawn on are for at most "
        f"{format_cents(largest)}, less than this sale's {format_cents(amount_cents)}; "
        "each approves one sale (ADM-9).",
        {"approved_cents": largest, "amount_cents": amount_cents, "drawn": len(used)},
    )
