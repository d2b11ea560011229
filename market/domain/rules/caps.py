"""The one cap check every program uses (BR-12, UTH-12, DMQ-1, TB-5, TB-11; CMN-4(c))."""

from __future__ import annotations

from market.domain.errors import CapExceededError, InvalidRequestError
from market.domain.values import format_cents


def remaining_cents(cap_cents: int, used_cents: int) -> int:
    return max(0, cap_cents - used_cents)


def check_cap(name: str, cap_cents: int, used_cents: int, amount_cents: int) -> None:
    if amount_cents < 0 or used_cents < 0:
        raise InvalidRequestError(
            f"{name}: amounts must not be negative",
            {"cap": name, "used_cents": used_cents, "amount_cents": amount_cents},
        )
    if used_cents + amount_cents > cap_cents:
        remaining = remaining_cents(cap_cents, used_cents)
        raise CapExceededError(
            f"{name}: {format_cents(amount_cents)} would exceed the cap of "
            f"{format_cents(cap_cents)}; only {format_cents(remaining)} remains",
            {
                "cap": name,
                "cap_cents": cap_cents,
                "used_cents": used_cents,
                "amount_cents": amount_cents,
                "remaining_cents": remaining,
            },
        )
