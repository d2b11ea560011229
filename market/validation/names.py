"""The party-name rule as a marshmallow field (market/domain/names.py says which
characters are refused and why)."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from market.domain.names import invisible_problem


def refuse_invisible(value: str) -> None:
    problem = invisible_problem(value)
    if problem:
        raise ValidationError(problem)


def display_name(max_len: int, required: bool = True) -> fields.String:
    return fields.String(
        required=required, validate=[validate.Length(min=1, max=max_len), refuse_invisible]
    )
