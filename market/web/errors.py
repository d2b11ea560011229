"""How a page shows a refused request."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from market.api.error_codes import status_of
from market.domain.errors import DomainError


def render_domain_error(e: DomainError) -> ResponseReturnValue:
    return render_template("error.html", error=e), status_of(e)
