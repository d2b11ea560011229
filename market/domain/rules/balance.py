"""Balances never go negative (CMN-4(a), CMN-4(b)): nothing is sold or applied twice."""

from __future__ import annotations

from market.domain.errors import InsufficientBalanceError, InvalidRequestError
from market.domain.values import format_cents


def check_available(balance_cents: int, amount_cents: int, what: str = "certificate") -> None:
    if amount_cents <= 0:
        raise InvalidRequestError(
            "an amount must be positive", {"amount_cents": amount_cents, "what": what}
        )
    if amount_cents > balance_cents:
        raise InsufficientBalanceError(
            f"the {what} has {format_cents(max(0, balance_cents))} available; "
            f"{format_cents(amount_cents)} was asked for",
            {"balance_cents": balance_cents, "amount_cents": amount_cents, "what": what},
        )
