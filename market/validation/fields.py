"""The field builders every shared schema uses: amounts in integer cents, basis points,
bounded text. An amount's refusal is in dollars, so a page shows it beside its dollar field
as it is and the API's caller reads the same words."""

from __future__ import annotations

from marshmallow import fields, validate

from market.domain.values import format_cents

MAX_BPS = 10_000
MAX_CENTS = 10**14  # $1 trillion: far above any certificate, well inside 64-bit integers


def cents(required: bool = True, minimum: int = 0) -> fields.Integer:
    """An amount in integer cents, from `minimum` to MAX_CENTS."""
    low = "more than $0.00" if minimum == 1 else f"at least {format_cents(minimum)}"
    return fields.Integer(
        strict=True,
        required=required,
        validate=validate.Range(
            min=minimum,
            max=MAX_CENTS,
            error=f"Must be {low} and at most {format_cents(MAX_CENTS)}.",
        ),
    )


def bps(required: bool = True) -> fields.Integer:
    return fields.Integer(strict=True, required=required, validate=validate.Range(0, MAX_BPS))


def text(max_len: int, required: bool = True) -> fields.String:
    return fields.String(required=required, validate=validate.Length(min=1, max=max_len))
