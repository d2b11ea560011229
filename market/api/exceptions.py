"""The Director's exception for an individual's direct GIT purchase (PT-7, AMB-53)."""

from __future__ import annotations

from typing import Any

from flask.typing import ResponseReturnValue

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor
from market.api.parties import PartyOut
from market.services.parties import director_exceptions
from market.validation.parties import ExceptionIn

blp = Blueprint(
    "exceptions", __name__, url_prefix="/api/v1/parties", description="Director's exceptions"
)


@blp.route("/<party_id>/director-exception", methods=["POST"])
@blp.arguments(ExceptionIn)
@blp.alt_response(201, schema=PartyOut)
def record_exception(data: dict[str, Any], party_id: str) -> ResponseReturnValue:
    """Record the Director's exception letting an individual buy a DM_GIT credit directly
    (authority); the party shows it as `director_exception`."""
    actor = current_actor()
    return command(
        lambda uow: director_exceptions.record_exception(uow, actor, party_id, data["reason"]),
        PartyOut(),
    )
