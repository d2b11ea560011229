"""How a page shows a refused request."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from market.domain.errors import DomainError
from market.validation.error_codes import status_of


def render_domain_error(e: DomainError) -> ResponseReturnValue:
    return render_template("error.html", error=e), status_of(e)
