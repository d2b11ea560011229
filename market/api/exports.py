"""Reports as files: every transfer with the price paid and its ratio to face."""

from __future__ import annotations

from flask import Response

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.services.queries import exports

blp = Blueprint("exports", __name__, url_prefix="/api/v1/reports", description="Exports")


CSV = {"schema": {"type": "string"}, "example": "id,certificate_id,status,...\r\n"}


@blp.route("/transfers.csv", methods=["GET"])
@blp.doc(responses={"200": {"description": "The CSV file", "content": {"text/csv": CSV}}})
def transfers_csv() -> Response:
    """Every transfer, all statuses, as CSV safe against spreadsheet formulas
    (authority, auditor); streamed, a thousand rows at a time."""
    return Response(
        exports.stream_transfers_csv(engine(), current_actor()),
        mimetype="text/csv",
        headers={"Content-Disposition": 'attachment; filename="transfers.csv"'},
    )
