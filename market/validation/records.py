"""A party's report facts (PRODUCT.md 9.2), shared by the API and the party pages: the
NAICS 2022 code and employees by year, refused by the same domain checks the import runs."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from market.domain.rules.records import RecordValueError, check_employees, check_naics

_COUNT = validate.Range(0, 10**7)


def _naics(value: str) -> None:
    try:
        check_naics(value)
    except RecordValueError as exc:
        raise ValidationError(exc.message) from None


def _employees(value: dict[str, Any]) -> None:
    try:
        check_employees(value)
    except RecordValueError as exc:
        raise ValidationError(exc.message) from None


def naics_field() -> fields.String:
    return fields.String(
        load_default=None,
        allow_none=True,
        validate=_naics,
        metadata={"description": "NAICS 2022 code: 2 to 6 digits of a real sector"},
    )


def employees_field() -> fields.Dict:
    return fields.Dict(
        keys=fields.String(),
        values=fields.Integer(strict=True),
        load_default=None,
        allow_none=True,
        validate=_employees,
        metadata={"description": 'Employees by year: {"2025": 120}'},
    )


class PartyFactsIn(Schema):
    """What `PATCH /api/v1/parties/{id}` changes: a field left out keeps its value."""

    naics_code = naics_field()
    employees = employees_field()
    # TB-1, AMB-50: the TECH eligibility facts the exchange reads from the party record.
    us_employees = fields.Integer(strict=True, load_default=None, validate=_COUNT)
    nj_full_time_employees = fields.Integer(strict=True, load_default=None, validate=_COUNT)
    formed_on = fields.Date(load_default=None)
