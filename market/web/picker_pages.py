"""The type-ahead pickers' matches: a form carries only the first few parties and
certificates (market/services/queries/pickers.py), and market/static/app.js asks here for those
matching what is typed, to refill the form's list. Without script the list stays as it
came and whatever is typed is still resolved on submit. Only the roles whose pages have
the pickers may ask (the Authority's desks, the ledger's party filter)."""

from __future__ import annotations

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from market.services.kernel import lookups
from market.services.kernel.uow import ReadOnly
from market.services.queries import pickers
from market.web.base import bp, engine, roles_required

MAX_TYPED = 100


def _typed() -> str:
    return (request.args.get("q") or "")[:MAX_TYPED]


@bp.get("/pickers/parties", endpoint="party_picker")
@roles_required("authority", "auditor")
def party_picker() -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        found = pickers.party_choices(conn, _typed())
    return jsonify(choices=[{"value": p["label"], "label": p["entity_type"]} for p in found])


@bp.get("/pickers/certificates", endpoint="certificate_picker")
@roles_required("authority")
def certificate_picker() -> ResponseReturnValue:
    with ReadOnly(engine()) as conn:
        found = pickers.certificate_choices(conn, _typed())
        names = lookups.names_of(conn, [c["holder_party_id"] for c in found])
    holder = {c["number"]: names.get(c["holder_party_id"], "") for c in found}
    return jsonify(choices=[{"value": n, "label": h} for n, h in holder.items()])
