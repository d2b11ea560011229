"""Small form helpers shared by the pages: dollars to exact cents, and refusals in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from flask import flash, g, redirect, url_for
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.validation.error_codes import status_of
from market.web.filters import money


class FormError(Exception):
    """A field the person typed cannot be read; shown back to them as it is, and tied to
    the field (`field`, its form name) so the page can mark it."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def cents(form: Mapping[str, str], name: str, label: str, *, required: bool = True) -> int | None:
    """Dollars typed as `1,234.56` or `$1234.5` to integer cents, exactly (Decimal):
    more than two decimals, a negative amount or anything else is refused."""
    raw = (form.get(name) or "").strip().replace(",", "").replace("$", "")
    if not raw:
        if required:
            raise FormError(f"{label} is required.", name)
        return None
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise FormError(f"{label} must be an amount in dollars, like 1,250.00.", name) from None
    if not value.is_finite():
        raise FormError(f"{label} must be an amount in dollars, like 1,250.00.", name)
    if value < 0:
        raise FormError(f"{label} must not be negative.", name)
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent < -2:
        raise FormError(f"{label} has more than two decimals; amounts are in whole cents.", name)
    return int(value * 100)


def per_dollar(form: Mapping[str, str], name: str, label: str) -> Fraction:
    """A price typed in cents on the dollar (`90.5`, `90.5¢`) to an exact Fraction of
    cents per dollar of credit: up to four decimals, from 0 to 100 (more than 100 cents
    would pay above the credit's face, most likely dollars typed in the wrong field)."""
    raw = (form.get(name) or "").strip().removesuffix("¢").strip()
    if not raw:
        raise FormError(f"{label} is required.", name)
    try:
        value = Decimal(raw)
    except InvalidOperation:
        raise FormError(f"{label} must be cents on the dollar, like 90.5.", name) from None
    exponent = value.as_tuple().exponent
    if not value.is_finite() or not isinstance(exponent, int):
        raise FormError(f"{label} must be cents on the dollar, like 90.5.", name)
    if value < 0 or value > 100:
        raise FormError(f"{label} must be from 0 to 100 cents on the dollar.", name)
    if exponent < -4:
        raise FormError(f"{label} has more than four decimals.", name)
    return Fraction(value)


def optional_day(form: Mapping[str, str], name: str, label: str) -> date | None:
    return day(form, name, label) if (form.get(name) or "").strip() else None


def required_cents(form: Mapping[str, str], name: str, label: str) -> int:
    value = cents(form, name, label)
    assert value is not None
    return value


def integer(form: Mapping[str, str], name: str, label: str, *, required: bool = True) -> int | None:
    raw = (form.get(name) or "").strip()
    if not raw:
        if required:
            raise FormError(f"{label} is required.", name)
        return None
    try:
        return int(raw)
    except ValueError:
        raise FormError(f"{label} must be a whole number.", name) from None


def required_int(form: Mapping[str, str], name: str, label: str) -> int:
    value = integer(form, name, label)
    assert value is not None
    return value


def text(form: Mapping[str, str], name: str, label: str, *, required: bool = True) -> str | None:
    value = (form.get(name) or "").strip()
    if not value:
        if required:
            raise FormError(f"{label} is required.", name)
        return None
    return value


def required_text(form: Mapping[str, str], name: str, label: str) -> str:
    value = text(form, name, label)
    assert value is not None
    return value


def day(form: Mapping[str, str], name: str, label: str) -> date:
    raw = required_text(form, name, label)
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise FormError(f"{label} must be a date like 2014-03-31.", name) from None


def attempt(action: Callable[[], Any]) -> tuple[bool, Any, int]:
    """Run a form's action; a refusal (a rule, or a field that cannot be read) is flashed
    in words and reported with its status, and nothing was written."""
    try:
        return True, action(), 200
    except FormError as e:
        flash(e.message, "error")
        if e.field:
            g.field_errors = {e.field: e.message}
        return False, None, e.status
    except DomainError as e:
        flash(e.message, "error")
        return False, None, status_of(e)


def finish(
    action: Callable[[], Any],
    message: Callable[[Any], str],
    render: Callable[[int], ResponseReturnValue],
    endpoint: str,
) -> ResponseReturnValue:
    """A form post's ending: on a refusal the page again with its status (the message is
    flashed by `attempt`), else the success flashed and a redirect to `endpoint`."""
    ok, result, status = attempt(action)
    if not ok:
        return render(status)
    flash(message(result), "success")
    return redirect(url_for(endpoint))


def field_errors() -> dict[str, str]:
    """The field a refused form failed on, for the templates (empty when none did)."""
    return dict(g.get("field_errors") or {})


def dollars(amount_cents: int) -> str:
    """Cents as the pages show them, for flashed messages."""
    return money(amount_cents)
