"""Form fields read one by one, each refusal kept against its field, so the page can mark
the field (aria-invalid) and tie the message to it (aria-describedby), and show every
problem at once rather than the first."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, TypeVar

from flask import flash, g
from marshmallow import Schema, ValidationError

from market.domain.errors import DomainError
from market.domain.rules import offer_terms
from market.web import forms
from market.web.forms import FormError

T = TypeVar("T")


class Fields:
    def __init__(self, form: Mapping[str, str]) -> None:
        self.form = form
        self.errors: dict[str, str] = {}

    def read(self, name: str, parse: Callable[[], T]) -> T | None:
        """`parse()` the field `name`; a refusal is kept against it and gives None."""
        try:
            return parse()
        except (FormError, DomainError) as e:
            self.errors[name] = e.message
            return None

    def text(self, name: str) -> str | None:
        """The field as typed, trimmed; None when blank (the schema says it is required)."""
        return (self.form.get(name) or "").strip() or None

    def cents(self, name: str, label: str, *, required: bool = True) -> int | None:
        """Dollars as typed (`1,250.00`) to exact cents; the amount's bounds are the schema's.
        A blank required field is refused as "{label} is required."; a blank optional one
        gives None (left out of what the schema loads)."""
        return self.read(name, lambda: forms.cents(self.form, name, label, required=required))

    def price(self, name: str, label: str, amount_cents: int | None) -> int | None:
        """A price typed in cents on the dollar (`90.5`) for `amount_cents` of credit, to
        integer cents rounded up (market/domain/rules/offer_terms.py); None when either
        could not be read (the amount's own refusal is its field's)."""
        rate: Fraction | None = self.read(name, lambda: forms.per_dollar(self.form, name, label))
        if rate is None or amount_cents is None:
            return None
        if amount_cents <= 0:
            return 0  # nothing to price: the amount's own field is refused by the schema
        return offer_terms.price_for(amount_cents, rate)

    def day(self, name: str, label: str) -> date | None:
        """An optional date (`2014-09-30`); blank gives None."""
        return self.read(name, lambda: forms.optional_day(self.form, name, label))

    def integer(self, name: str, label: str) -> int | None:
        """A whole number as typed; its bounds are the schema's. Blank gives None."""
        return self.read(name, lambda: forms.integer(self.form, name, label, required=False))

    def positive_cents(self, name: str, label: str) -> int | None:
        """Dollars to cents, more than zero (as the API's `cents(minimum=1)`)."""
        value = self.read(name, lambda: forms.required_cents(self.form, name, label))
        if value == 0:
            self.errors[name] = f"{label} must be more than $0.00."
            return None
        return value

    def percent_bps(self, name: str, label: str, *, required: bool = True) -> int | None:
        """A percentage typed as `25`, `10.5` or `33.33%` to exact basis points."""
        raw = (self.form.get(name) or "").strip().rstrip("%").strip()
        if not raw:
            if required:
                self.errors[name] = f"{label} is required."
            return None
        try:
            value = Decimal(raw)
        except InvalidOperation:
            self.errors[name] = f"{label} must be a percentage, like 25 or 12.5."
            return None
        scaled = value * 100
        if not value.is_finite() or scaled != scaled.to_integral_value():
            self.errors[name] = f"{label} has more than two decimals (basis points are whole)."
            return None
        return int(scaled)

    def load(self, schema: Schema, data: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
        """Validate `data` with the API's marshmallow `schema`; each message goes to the
        form field `fields` names for the schema's field (else to the first field). A None
        value is left out, so the schema reports it missing unless a field already failed."""
        try:
            return schema.load({k: v for k, v in data.items() if v is not None})
        except ValidationError as e:
            messages = e.messages if isinstance(e.messages, dict) else {"_": e.messages}
            first = next(iter(fields.values()), "_")
            for key, problem in messages.items():
                text = _words(problem)
                self.errors.setdefault(fields.get(str(key), first), text)
            return None

    @property
    def ok(self) -> bool:
        return not self.errors

    def refuse(self) -> int:
        """Flash that nothing was written; the templates' `field_errors` mark each field."""
        g.field_errors = dict(self.errors)
        flash(
            "Nothing was written: correct the field"
            + ("s" if len(self.errors) > 1 else "")
            + " marked below.",
            "error",
        )
        return 400


def _words(problem: Any) -> str:
    if isinstance(problem, dict):
        return " ".join(_words(v) for v in problem.values())
    if isinstance(problem, list):
        return " ".join(_words(v) for v in problem)
    return str(problem)
